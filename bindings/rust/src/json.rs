//! The JSON text of an estimate, written as the command's `trainsize estimate --json`
//! writes it (programs/trainsize/json_out.c): the field table's dotted paths become nested
//! objects in the order their first component appears, "trainsize_version" comes first,
//! two-space indentation, doubles in the shortest of `%.15g`, `%.16g`, `%.17g` that reads
//! back as the same double, and strings escaped byte by byte the same way.

use crate::sys;
use std::os::raw::c_char;

/// `%.{prec}g` of a finite double, as C's printf writes it.
fn format_g(d: f64, prec: usize) -> String {
    debug_assert!(prec >= 1);
    if d == 0.0 {
        return if d.is_sign_negative() { "-0".to_string() } else { "0".to_string() };
    }
    // Correctly rounded to `prec` significant digits: "-d.ddddde-x".
    let sci = format!("{:.*e}", prec - 1, d);
    let (mantissa, exp) = match sci.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (sci.as_str(), 0),
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::with_capacity(32);
    if negative {
        out.push('-');
    }
    if exp < -4 || exp >= prec as i32 {
        // Exponent style: trailing zeros of the fraction removed, exponent of 2+ digits.
        out.push_str(&digits[..1]);
        let frac = digits[1..].trim_end_matches('0');
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if exp >= 0 {
        let split = exp as usize + 1;
        out.push_str(&digits[..split]);
        let frac = digits[split..].trim_end_matches('0');
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
    } else {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// A double as the command writes it: `null` when not finite, else the shortest of
/// `%.15g`..`%.17g` that reads back as the same value.
pub(crate) fn number(d: f64) -> String {
    if !d.is_finite() {
        return "null".to_string();
    }
    let mut text = String::new();
    for prec in 15..=17 {
        text = format_g(d, prec);
        if text.parse::<f64>().map(|back| back == d).unwrap_or(false) {
            break;
        }
    }
    text
}

/// Length of the valid UTF-8 sequence at the start of `s`, or 0 when it is invalid
/// (the same rules as the command's `utf8_len`).
fn utf8_len(s: &[u8]) -> usize {
    let (n, mut cp) = match s[0] {
        0x00..=0x7f => return 1,
        0xc2..=0xdf => (2, u32::from(s[0] & 0x1f)),
        0xe0..=0xef => (3, u32::from(s[0] & 0x0f)),
        0xf0..=0xf4 => (4, u32::from(s[0] & 0x07)),
        _ => return 0,
    };
    if n > s.len() {
        return 0;
    }
    for &b in &s[1..n] {
        if b & 0xc0 != 0x80 {
            return 0;
        }
        cp = (cp << 6) | u32::from(b & 0x3f);
    }
    if (n == 3 && cp < 0x800) || (n == 4 && !(0x10000..=0x10ffff).contains(&cp)) || (0xd800..=0xdfff).contains(&cp) {
        return 0;
    }
    n
}

/// A JSON string of raw bytes: `"` and `\` escaped, control bytes and DEL as `\u00XX`,
/// each byte that does not start a valid UTF-8 sequence as `\ufffd`.
pub(crate) fn string(out: &mut String, s: &[u8]) {
    out.push('"');
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        let n;
        if b == b'"' || b == b'\\' {
            out.push('\\');
            out.push(b as char);
            n = 1;
        } else if b < 0x20 || b == 0x7f {
            out.push_str(&format!("\\u{:04x}", b));
            n = 1;
        } else {
            let len = utf8_len(&s[i..]);
            if len == 0 {
                out.push_str("\\ufffd");
                n = 1;
            } else {
                // Valid by construction.
                out.push_str(std::str::from_utf8(&s[i..i + len]).unwrap_or("\u{fffd}"));
                n = len;
            }
        }
        i += n;
    }
    out.push('"');
}

/// The bytes of a NUL-terminated C string (empty for NULL).
unsafe fn c_bytes<'a>(p: *const c_char) -> &'a [u8] {
    if p.is_null() {
        &[]
    } else {
        std::ffi::CStr::from_ptr(p).to_bytes()
    }
}

fn value(out: &mut String, r: &sys::trainsize_result, index: usize) {
    let mut v = sys::trainsize_field_value {
        type_: 0,
        u64: 0,
        f64: 0.0,
        text: std::ptr::null(),
    };
    // SAFETY: r is a whole result and v a whole value; the text points into r or into the
    // library's static storage, both alive while we read it.
    let rc = unsafe { sys::trainsize_result_field_get(r, index, &mut v) };
    if rc != sys::TRAINSIZE_OK {
        out.push_str("null");
        return;
    }
    match v.type_ {
        sys::TRAINSIZE_FIELD_U64 => out.push_str(&v.u64.to_string()),
        sys::TRAINSIZE_FIELD_F64 => out.push_str(&number(v.f64)),
        sys::TRAINSIZE_FIELD_BOOL => out.push_str(if v.u64 != 0 { "true" } else { "false" }),
        sys::TRAINSIZE_FIELD_STRING | sys::TRAINSIZE_FIELD_CHOICE => {
            if v.text.is_null() {
                out.push_str("null");
            } else {
                string(out, unsafe { c_bytes(v.text) });
            }
        }
        sys::TRAINSIZE_FIELD_FLAGS => {
            out.push('[');
            let mut first = true;
            for bit in 0..64 {
                let mask = 1u64 << bit;
                if v.u64 & mask == 0 {
                    continue;
                }
                let name = unsafe { sys::trainsize_warning_name(mask) };
                if name.is_null() {
                    continue;
                }
                if !first {
                    out.push_str(", ");
                }
                string(out, unsafe { c_bytes(name) });
                first = false;
            }
            out.push(']');
        }
        _ => out.push_str("null"), // a type newer than these bindings
    }
}

struct Node {
    name: &'static [u8],
    field: Option<usize>,
    children: Vec<usize>,
}

fn child(nodes: &[Node], parent: usize, name: &[u8]) -> Option<usize> {
    nodes[parent].children.iter().copied().find(|&c| nodes[c].name == name)
}

/// Adds one field's path to the tree; a path with an empty component, or one that clashes
/// with another (given twice, or both a value and an object), is left out.
fn insert(nodes: &mut Vec<Node>, path: &'static [u8], field: usize) {
    let parts: Vec<&'static [u8]> = path.split(|&b| b == b'.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return;
    }
    let mut at = 0;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        match child(nodes, at, part) {
            Some(c) if last || nodes[c].field.is_some() => return,
            Some(c) => at = c,
            None => {
                nodes.push(Node {
                    name: part,
                    field: if last { Some(field) } else { None },
                    children: Vec::new(),
                });
                let id = nodes.len() - 1;
                nodes[at].children.push(id);
                at = id;
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth * 2 {
        out.push(' ');
    }
}

fn members(out: &mut String, nodes: &[Node], r: &sys::trainsize_result, at: usize, depth: usize, mut first: bool) {
    for &c in &nodes[at].children {
        if !first {
            out.push(',');
        }
        first = false;
        indent(out, depth);
        let name = nodes[c].name;
        string(out, &name[..name.len().min(255)]);
        out.push_str(": ");
        match nodes[c].field {
            Some(index) => value(out, r, index),
            None => {
                out.push('{');
                members(out, nodes, r, c, depth + 1, true);
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

/// The "advice" array as the command prints it (empty when the job fits).
fn advice(out: &mut String, advice: &[crate::Advice]) {
    out.push_str(",\n  \"advice\": [");
    for (i, a) in advice.iter().enumerate() {
        out.push_str(if i > 0 { ",\n    {\"set\": {" } else { "\n    {\"set\": {" });
        for (k, (name, value)) in a.settings.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            string(out, name.as_bytes());
            out.push_str(": ");
            string(out, value.as_bytes());
        }
        out.push_str(&format!(
            "}}, \"peak_total\": {}, \"gpu_capacity\": {}, \"fits\": true, \"gpus\": {}, \"step_seconds\": ",
            a.peak_total, a.gpu_capacity, a.gpus
        ));
        out.push_str(&number(a.step_seconds));
        out.push_str(", \"seconds\": ");
        out.push_str(&number(a.seconds));
        out.push('}');
    }
    out.push_str(if advice.is_empty() { "]" } else { "\n  ]" });
}

/// The whole JSON text of a result and its advice, with the final newline.
pub(crate) fn result(r: &sys::trainsize_result, adv: &[crate::Advice]) -> String {
    let count = unsafe { sys::trainsize_result_field_count() };
    let mut nodes = vec![Node {
        name: b"",
        field: None,
        children: Vec::new(),
    }];
    for i in 0..count {
        let info = unsafe { sys::trainsize_result_field_at(i) };
        if info.is_null() {
            continue;
        }
        // SAFETY: library-owned static storage, alive as long as the library is loaded.
        let path: &'static [u8] = unsafe { c_bytes((*info).path) };
        if path == b"trainsize_version" {
            continue; // written first, below
        }
        insert(&mut nodes, path, i);
    }
    let mut out = String::with_capacity(4096);
    out.push('{');
    indent(&mut out, 1);
    out.push_str("\"trainsize_version\": ");
    string(&mut out, unsafe { c_bytes(sys::trainsize_version_string()) });
    members(&mut out, &nodes, r, 0, 1, false);
    advice(&mut out, adv);
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_printf() {
        assert_eq!(format_g(1.51016284618752e15, 15), "1.51016284618752e+15");
        assert_eq!(format_g(19653.9264, 15), "19653.9264");
        assert_eq!(format_g(0.002662146042958769, 16), "0.002662146042958769");
        assert_eq!(format_g(0.002662146042958769, 17), "0.0026621460429587691");
        assert_eq!(format_g(1.0, 15), "1");
        assert_eq!(format_g(5760.0, 15), "5760");
        assert_eq!(format_g(1e-5, 15), "1e-05");
        assert_eq!(format_g(0.0001, 15), "0.0001");
        assert_eq!(format_g(123456789012345.0, 15), "123456789012345");
        assert_eq!(format_g(1234567890123456.0, 15), "1.23456789012346e+15");
        assert_eq!(format_g(-2.5e-300, 15), "-2.5e-300");
        assert_eq!(format_g(1e100, 15), "1e+100");
        assert_eq!(format_g(-0.0, 15), "-0");
    }

    #[test]
    fn shortest_round_trip() {
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(1.512582978953846), "1.512582978953846");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(f64::INFINITY), "null");
        for &d in &[0.1 + 0.2, 1.0 / 3.0, 2.0f64.sqrt() * 1e20, 5e-324, f64::MAX, f64::MIN_POSITIVE] {
            assert_eq!(number(d).parse::<f64>().unwrap(), d);
        }
    }

    #[test]
    fn strings_escape_like_the_command() {
        let mut s = String::new();
        string(&mut s, b"a\"b\\c\n\x7f\xff\xc3\xa9");
        assert_eq!(s, "\"a\\\"b\\\\c\\u000a\\u007f\\ufffd\u{e9}\"");
    }
}
