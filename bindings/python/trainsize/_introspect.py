"""What help(), inspect.signature() and an unknown keyword's "did you mean" say about
estimate() and plan(), built from the library's parameter table (trainsize_param_at).

Imported on first use only: by a help() or inspect.signature() of estimate() or plan()
(through :class:`trainsize._Described`), or by an unknown keyword's error. Never at import,
never by an estimate.
"""

import inspect
import textwrap

#: estimate()'s and plan()'s keywords that are not job parameters of the library (the
#: model is one: it is in the table).
BINDING_KEYWORDS = (
    ("hf_config", "a path (str or os.PathLike), a dict or JSON bytes",
     "a Hugging Face config.json as the model (excludes model)"),
    ("hf_model", "str, ORG/NAME",
     "a model the Hugging Face cache holds: its config.json as the model, its parameters "
     "counted from its safetensors headers, which win where they hold more (excludes model, "
     "hf_config and safetensors)"),
    ("revision", "str; default main", "hf_model's branch, tag or commit id"),
    ("safetensors", "a path (str or os.PathLike)",
     "a checkpoint's safetensors, its parameters counted from their headers: a folder (its "
     "config.json is the model unless model or hf_config gives one), a .safetensors file or "
     "a model.safetensors.index.json"),
    ("gpu_file", "a path (str or os.PathLike), a dict or JSON bytes",
     "a JSON device file for a GPU outside the catalogue (excludes gpu)"),
    ("calibration", "a path (str or os.PathLike), a dict or JSON bytes",
     "a site calibration (trainsize calibrate): the efficiency model's shares fitted to the "
     "site's own runs; the keywords win over them"),
)
PLAN_GPU_FILE_DOC = "a GPU of your own description, as a JSON device file: plan for it alone"
#: Line width of the keyword listing (help() indents a docstring by 4 more).
WIDTH = 84


# ---- "did you mean" --------------------------------------------------------------------

def _fold(name):
    """A name as the library's name rule compares it: ASCII lower case, the separators
    '-', '_' and ' ' dropped."""
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in name if c not in "-_ ")


def _edits(a, b):
    """Edits (insert, delete, replace) between two strings; one row of the table."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        diag, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            up = row[j]
            row[j] = min(diag + (ca != cb), up + 1, row[j - 1] + 1)
            diag = up
    return row[-1]


def nearest(query, names):
    """The name of ``names`` nearest to ``query``, or None when none is near. The library's
    rule for preset and GPU names: one the query starts (``micro`` -> ``micro_batch``), else
    the closest by edits if within a third of the query's length (``micro_bach``); then, as
    keywords are often half-remembered compounds, one that holds the query (4 characters
    or more: ``gpu_count`` -> ``plan_gpu_count``). Names compare folded (case and
    separators ignored); ties go to the first in ``names``."""
    q = _fold(query)
    if not q:
        return None
    folded = [(name, _fold(name)) for name in names]
    for name, f in folded:
        if len(f) > len(q) and f.startswith(q):
            return name
    best, best_edits = None, None
    for name, f in folded:
        if f:
            d = _edits(q, f)
            if best_edits is None or d < best_edits:
                best, best_edits = name, d
    if best is not None and best_edits * 3 <= len(q):
        return best
    if len(q) >= 4:
        for name, f in folded:
            if q in f:
                return name
    return None


def keywords(params, for_plan):
    """The keywords estimate() (or plan()) takes, in the order help() lists them."""
    names = [p["name"].replace("-", "_") for p in params
             if not (for_plan and p["plan_refusal"])]
    out = names[:1] if names[:1] == ["model"] else []
    out += [k for k, _, _ in BINDING_KEYWORDS]
    out += [n for n in names if n not in out]
    return (["top", "progress"] if for_plan else []) + out


def suggestion(params, option, for_plan):
    """The keyword to suggest for an unknown one (its library name ``option``), or None."""
    return nearest(option, keywords(params, for_plan))


# ---- help() and inspect.signature() ----------------------------------------------------

def _number(x):
    return "%.15g" % x


def _heading(p):
    """``int, 1 to 1000000000 [samples]; default 1``: kind, range, unit and default."""
    kind, unit, default = p["kind"], p["unit"], p["default"]
    if kind == "choice":
        text = "one of " + ", ".join(p["choices"])
    elif kind == "list":
        text = "list of " + ", ".join(p["choices"]) + " (or a comma-separated str)"
    else:
        text = kind
        if kind in ("int", "float") and (p["min"] or p["max"]):
            text += ", %s to %s" % (_number(p["min"]), _number(p["max"]))
    if unit:
        text += " [%s]" % unit
    if default:
        if kind == "bool" and default in ("true", "false"):
            default = "True" if default == "true" else "False"
        text += "; default " + default
    return text


def _entry(keyword, heading, doc):
    lines = textwrap.wrap("%s: %s" % (keyword, heading), WIDTH - 4,
                          initial_indent="    ", subsequent_indent="        ")
    if doc:
        lines += textwrap.wrap(doc, WIDTH - 8, initial_indent="        ",
                               subsequent_indent="        ")
    return lines


def listing(params, for_plan, top_default=10, top_max=100):
    """The keyword section help() shows after the function's own docstring."""
    by_keyword = {p["name"].replace("-", "_"): p for p in params}
    extra = {k: (h, d) for k, h, d in BINDING_KEYWORDS}
    if for_plan:
        extra["top"] = ("int, 1 to %d; default %d" % (top_max, top_default),
                        "how many candidates to return (trainsize plan --top)")
        extra["progress"] = ("a callable, progress(done, total, examined)",
                             "called after each GPU count is searched, done counting up to "
                             "total; a true return cancels the search (TrainsizeError, "
                             "Status.E_CANCELLED)")
        extra["gpu_file"] = (extra["gpu_file"][0], PLAN_GPU_FILE_DOC)
    lines = textwrap.wrap(
        "Keywords, from the library's parameter table (trainsize.parameters() gives them "
        "as records). A default left out depends on the other keywords (the model's shape, "
        "the GPU, ...); None, or leaving a keyword out, means \"not given\":", WIDTH)
    lines.append("")
    for keyword in keywords(params, for_plan):
        if keyword in extra:
            heading, doc = extra[keyword]
        else:
            p = by_keyword[keyword]
            heading, doc = _heading(p), p["doc"]
            if for_plan and keyword == "gpu" and "plan_gpus" in by_keyword:
                heading = "name, or a list of names"
                doc = by_keyword["plan_gpus"]["doc"] + " (plan_gpus)"
        lines += _entry(keyword, heading, doc)
    if for_plan:
        refused = {}
        for p in params:
            if p["plan_refusal"]:
                refused.setdefault(p["plan_refusal"], []).append(p["name"].replace("-", "_"))
        if refused:
            lines += ["", "Refused, as by trainsize plan:"]
            for reason, names in refused.items():
                lines += textwrap.wrap("%s (%s)" % (reason, ", ".join(names)), WIDTH - 4,
                                       initial_indent="    ", subsequent_indent="    ")
    return "\n".join(lines)


def signature(params, for_plan, top_default=10):
    """estimate(*, model=None, hf_config=None, ...) or plan(top=10, *, progress=None,
    model=None, ...): every keyword defaults to None ("not given"; the library applies its
    own default)."""
    out = []
    for keyword in keywords(params, for_plan):
        if keyword == "top":
            out.append(inspect.Parameter("top", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                         default=top_default))
            continue
        try:
            out.append(inspect.Parameter(keyword, inspect.Parameter.KEYWORD_ONLY,
                                         default=None))
        except ValueError:  # a name Python cannot spell as a keyword: **{...} still takes it
            pass
    return inspect.Signature(out)


def describe(doc, params, for_plan, top_default=10, top_max=100):
    """(signature, full docstring) of estimate() or plan(), whose own docstring is ``doc``:
    that docstring, then the keyword listing."""
    doc = inspect.cleandoc(doc or "")
    full = doc + "\n\n" + listing(params, for_plan, top_default, top_max)
    return signature(params, for_plan, top_default), full


def twin(fn):
    """A copy of the function ``fn`` (same code, globals, docstring): what inspect.unwrap()
    reaches through ``fn.__wrapped__`` (for inspect.getsource(), doctest)."""
    import types
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__, copy.__module__, copy.__doc__ = fn.__qualname__, fn.__module__, fn.__doc__
    copy.__annotations__ = dict(fn.__annotations__)
    return copy
