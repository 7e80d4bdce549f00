//! The figures of bare `trainsize`: the command's built-in example job
//! (`trainsize::example_settings()`), printed as `trainsize --json` prints them.
//!
//!     cargo run --example bare            # the JSON, as `trainsize --json`
//!     cargo run --example bare -- --fields  # one "path = value" line per result field

use std::io::Write;

use trainsize::Job;

fn main() {
    let estimate = match Job::with_settings(trainsize::example_settings()).and_then(|job| job.estimate()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("bare: {}", e);
            std::process::exit(1);
        }
    };
    let text = if std::env::args().any(|a| a == "--fields") {
        estimate.fields().map(|(path, value)| format!("{} = {}\n", path, value)).collect()
    } else {
        estimate.to_json()
    };
    // A closed pipe (`| head`) is not worth a panic.
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        std::process::exit(1);
    }
}
