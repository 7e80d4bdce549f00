"""The C prototypes the binding uses: one table of (name, argtypes, restype[, optional]).

``register()`` sets ``argtypes`` and ``restype`` on a loaded ``ctypes.CDLL`` for every
entry, so that no call goes through ctypes' default ``int`` conversions. A required symbol
the library lacks is an error naming it; an optional one (newer than ABI 1's first
release) is set to ``None`` on the returned namespace.
"""

from ctypes import CFUNCTYPE, POINTER, c_char_p, c_int, c_size_t, c_uint, c_uint64, c_void_p

from . import _structs as S

_job = c_void_p  # trainsize_job *, opaque
_err = POINTER(S.Error)

#: trainsize_plan_progress_fn: int (*)(void *context, uint64_t done, uint64_t total,
#: uint64_t examined).
PlanProgress = CFUNCTYPE(c_int, c_void_p, c_uint64, c_uint64, c_uint64)

#: (symbol, argtypes, restype) or (symbol, argtypes, restype, "optional")
FUNCTIONS = [
    # Version
    ("trainsize_version_string", [], c_char_p),
    ("trainsize_version_number", [], c_uint),
    ("trainsize_abi_version", [], c_uint),
    ("trainsize_struct_size", [c_int], c_size_t, "optional"),
    # Errors
    ("trainsize_strerror", [c_int], c_char_p),
    # Jobs
    ("trainsize_job_new", [], _job),
    ("trainsize_job_clone", [_job], _job),
    ("trainsize_job_free", [_job], None),
    ("trainsize_job_set", [_job, c_char_p, c_char_p, _err], c_int),
    ("trainsize_job_get", [_job, c_char_p, c_void_p, c_size_t, _err], c_int),
    ("trainsize_job_load_hf_config", [_job, c_char_p, c_size_t, _err], c_int),
    ("trainsize_job_load_hf_config_file", [_job, c_char_p, _err], c_int),
    ("trainsize_job_load_gpu_json", [_job, c_char_p, c_size_t, _err], c_int),
    ("trainsize_job_load_gpu_file", [_job, c_char_p, _err], c_int),
    ("trainsize_job_load_calibration_json", [_job, c_char_p, c_size_t, _err], c_int),
    ("trainsize_job_load_calibration", [_job, c_char_p, _err], c_int),
    ("trainsize_calibrate", [c_char_p, c_size_t, c_char_p, POINTER(S.CalibrationRun), c_size_t,
                             POINTER(c_size_t), POINTER(S.CalibrationSummary), c_void_p, c_size_t,
                             POINTER(c_size_t), _err], c_int),
    # Catalogues
    ("trainsize_param_count", [], c_size_t),
    ("trainsize_param_at", [c_size_t], POINTER(S.ParamInfo)),
    ("trainsize_param_find", [c_char_p], c_int),
    ("trainsize_param_plan_refusal", [c_int], c_char_p),
    ("trainsize_model_count", [], c_size_t),
    ("trainsize_model_at", [c_size_t], POINTER(S.ModelInfo)),
    ("trainsize_warning_name", [c_uint64], c_char_p),
    ("trainsize_warning_text", [c_uint64], c_char_p),
    ("trainsize_example_setting", [c_size_t, POINTER(c_char_p), POINTER(c_char_p)], c_int, "optional"),
    # Estimate and its field table
    ("trainsize_estimate", [_job, c_void_p, c_size_t, _err], c_int),
    ("trainsize_result_field_count", [], c_size_t),
    ("trainsize_result_field_at", [c_size_t], POINTER(S.FieldInfo)),
    ("trainsize_result_field_get", [c_void_p, c_size_t, POINTER(S.FieldValue)], c_int),
    # Planning
    ("trainsize_plan", [_job, POINTER(S.PlanCandidate), c_size_t, POINTER(c_size_t),
                        POINTER(S.PlanStats), _err], c_int),
    ("trainsize_plan_with_progress", [_job, POINTER(S.PlanCandidate), c_size_t, POINTER(c_size_t),
                                      POINTER(S.PlanStats), PlanProgress, c_void_p, _err], c_int,
     "optional"),
    # The plan candidates' field table (its keys are trainsize plan --json's)
    ("trainsize_plan_field_count", [], c_size_t),
    ("trainsize_plan_field_at", [c_size_t], POINTER(S.FieldInfo)),
    ("trainsize_plan_field_get", [POINTER(S.PlanCandidate), c_size_t, POINTER(S.FieldValue)], c_int),
    # Fit advice
    ("trainsize_advise", [_job, POINTER(S.Advice), c_size_t, POINTER(c_size_t), _err], c_int,
     "optional"),
    # The human report
    ("trainsize_report", [_job, c_void_p, POINTER(S.Advice), c_size_t, c_void_p, c_size_t, _err],
     c_int, "optional"),
    # The estimate's JSON, as the command prints it
    ("trainsize_result_json", [c_void_p, POINTER(S.Advice), c_size_t, c_void_p, c_size_t, _err], c_int,
     "optional"),
    # The largest micro-batch and sequence that fit
    ("trainsize_largest_fit", [_job, POINTER(c_uint64), POINTER(c_uint64), _err], c_int,
     "optional"),
    # Checkpoints: safetensors headers, and the Hugging Face cache's snapshots
    ("trainsize_checkpoint_read", [c_char_p, POINTER(S.Checkpoint), _err], c_int, "optional"),
    ("trainsize_job_set_checkpoint", [_job, POINTER(S.Checkpoint), _err], c_int, "optional"),
    ("trainsize_job_load_checkpoint", [_job, c_char_p, c_char_p, POINTER(S.Checkpoint), _err], c_int,
     "optional"),
    ("trainsize_hf_hub_cache", [c_void_p, c_size_t], c_int, "optional"),
    ("trainsize_hf_snapshot", [c_char_p, c_char_p, c_char_p, c_void_p, c_size_t, _err], c_int,
     "optional"),
    # What a server can train, and the GPU catalogue's per_host that capacity(servers=) reads
    ("trainsize_capacity", [c_char_p, c_uint64, c_uint64, c_uint64, c_uint64, c_uint64,
                            POINTER(S.CapacityEntry), _err], c_int, "optional"),
    ("trainsize_capacity_json", [c_char_p, c_uint64, c_uint64, c_uint64, POINTER(S.CapacityEntry),
                                 c_void_p, c_size_t, _err], c_int, "optional"),
    ("trainsize_gpu_find", [c_char_p], c_void_p, "optional"),
    ("trainsize_gpu_field_count", [], c_size_t, "optional"),
    ("trainsize_gpu_field_at", [c_size_t], POINTER(S.FieldInfo), "optional"),
    ("trainsize_gpu_field_get", [c_void_p, c_size_t, POINTER(S.FieldValue)], c_int, "optional"),
]


class Functions:
    """The registered functions, as attributes named without the ``trainsize_`` prefix."""

    def __init__(self, cdll):
        self.cdll = cdll


def register(cdll, missing_error):
    """Declare every prototype of FUNCTIONS on ``cdll``; return a Functions namespace.

    ``missing_error(name)`` builds the exception raised for a missing required symbol.
    """
    ns = Functions(cdll)
    for entry in FUNCTIONS:
        name, argtypes, restype = entry[:3]
        optional = len(entry) > 3 and entry[3] == "optional"
        try:
            fn = getattr(cdll, name)
        except AttributeError:
            if optional:
                setattr(ns, name[len("trainsize_"):], None)
                continue
            raise missing_error(name) from None
        fn.argtypes = argtypes
        fn.restype = restype
        setattr(ns, name[len("trainsize_"):], fn)
    # trainsize_estimate once more without argtypes: ctypes then converts nothing, which
    # saves about 1 us a call; its callers pass ctypes objects only (a c_void_p job, byref
    # buffers, a c_size_t size), so the C types are still exact.
    ns.estimate_untyped = cdll["trainsize_estimate"]
    ns.estimate_untyped.restype = c_int
    return ns
