#!/usr/bin/env python3
# Written by tl-replay (share/tl/replay/replay.py of tl); see README.md.
# See the LICENSE file of tl for copyright and license details.
"""Replay the ops of a tl-replay IR alone, time them and check them.

Each IR entry is one op as a profiler trace recorded it.  The runner
matches its arguments to the op's schemas in this PyTorch, builds the
tensors with torch.empty_strided and seeded random data, calls the op,
checks the outputs (shape, dtype, finite values, and the checksum
sum(|x|) against a float64 reference run), then times it.  An op, an
overload or a dtype that this PyTorch or device lacks is reported as
"unsupported here"; the exit status is 1 only when an op failed.
"""
import argparse
import json
import math
import os
import sys
import time

try:
    import torch
except ImportError:
    sys.stderr.write("replay.py: PyTorch is not installed (import torch "
                     "failed)\n")
    sys.exit(2)

# The profiler's dtype names and the torch attributes they stand for.
DTYPES = {
    "float": "float32", "double": "float64", "c10::Half": "float16",
    "c10::BFloat16": "bfloat16", "long int": "int64", "long": "int64",
    "int": "int32", "short int": "int16", "short": "int16",
    "signed char": "int8", "unsigned char": "uint8", "bool": "bool",
    "unsigned short": "uint16", "unsigned int": "uint32",
    "unsigned long": "uint64",
    "c10::ComplexHalf": "complex32", "c10::ComplexFloat": "complex64",
    "c10::ComplexDouble": "complex128",
    "c10::Float8_e4m3fn": "float8_e4m3fn",
    "c10::Float8_e4m3fnuz": "float8_e4m3fnuz",
    "c10::Float8_e5m2": "float8_e5m2",
    "c10::Float8_e5m2fnuz": "float8_e5m2fnuz",
}
# c10::ScalarType codes, as the profiler records a dtype argument.
SCALAR_TYPES = {
    0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64",
    5: "float16", 6: "float32", 7: "float64", 8: "complex32",
    9: "complex64", 10: "complex128", 11: "bool", 15: "bfloat16",
    23: "float8_e5m2", 24: "float8_e4m3fn", 25: "float8_e5m2fnuz",
    26: "float8_e4m3fnuz",
}
MEMORY_FORMATS = {0: "contiguous_format", 1: "preserve_format",
                  2: "channels_last", 3: "channels_last_3d"}
# Relative tolerance of the checksum against the float64 reference.
TOLERANCE = {"bfloat16": 2e-2, "float16": 1e-2, "float32": 1e-4,
             "float64": 1e-9}
TOLERANCE_FP8 = 1.5e-1
TOLERANCE_INT = 1e-2    # indices may differ on ties
# Ops whose output is random or uninitialised: not compared.
RANDOM = ("normal", "uniform", "bernoulli", "dropout", "rand",
          "multinomial", "exponential_", "geometric_", "cauchy_",
          "log_normal_", "random_", "poisson")
UNINITIALISED = ("empty", "resize_", "set_")
# Error texts that mean "this build or device cannot run it".
UNSUPPORTED_TEXT = ("not implemented for", "Could not run",
                    "not supported", "Unsupported", "unsupported",
                    "does not support", "no kernel image", "only supports",
                    "is only available", "not available", "doesn't exist",
                    "No operator found", "only implemented", "Did you mean",
                    "expected scalar type", "mixed dtype")


# The operators this runner may call, one per line of allowed_ops.tsv
# beside it (share/tl/replay/allowed_ops.tsv of tl): tensor computations only.
# Any other op is refused, whatever the IR says: an op that reads or
# writes files, sockets, processes or the environment, or changes global
# settings, is never called.
ALLOWED_FILE = "allowed_ops.tsv"


def allowed_ops(here):
    """The allow-list beside the runner; empty when it cannot be read."""
    ops = set()
    try:
        with open(os.path.join(here, ALLOWED_FILE)) as f:
            header = None
            for line in f:
                line = line.rstrip("\r\n")
                if not line or line.startswith("#"):
                    continue
                if header is None:
                    header = line.split("\t").index("op")
                    continue
                ops.add(line.split("\t")[header])
    except (OSError, ValueError, IndexError):
        return set()
    return ops


def shown(text):
    """Trace text for the terminal: control characters (escape sequences,
    newlines) and backslashes as Python escapes, so that an op name or a
    reason from the IR can neither move the cursor nor forge a line."""
    out = []
    for c in str(text):
        if c == "\\":
            out.append("\\\\")
        elif " " <= c < "\x7f" or c > "\x9f":
            out.append(c)
        else:
            out.append("\\x%02x" % ord(c))
    return "".join(out)


class Unsupported(Exception):
    """This PyTorch or device cannot replay the op."""


class Mismatch(Exception):
    """The IR's arguments do not fit a schema."""


def dtype_of(name):
    attr = DTYPES.get(name)
    if attr is None:
        raise Unsupported("dtype %r is unknown to the runner" % name)
    dt = getattr(torch, attr, None)
    if dt is None:
        raise Unsupported("dtype %s (torch.%s) is not in PyTorch %s"
                          % (name, attr, torch.__version__))
    return dt


def dtype_name(dt, recorded):
    """The profiler's name of dt: the recorded one when it fits."""
    attr = str(dt).replace("torch.", "")
    if DTYPES.get(recorded) == attr:
        return recorded
    for name, a in DTYPES.items():
        if a == attr:
            return name
    return attr


def is_float(dt):
    return dt.is_floating_point or dt.is_complex


def storage_size(shape, strides):
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides))


def contiguous_strides(shape):
    st, acc = [], 1
    for d in reversed(shape):
        st.insert(0, acc)
        acc *= max(d, 1)
    return st


class Builder:
    """Tensors of one op: on the device, in float64 and on meta."""

    def __init__(self, device, ref_device, gen):
        self.device = device
        self.ref_device = ref_device
        self.gen = gen
        self.built = []      # (arg index, tensor, recorded type)
        self.defaulted = []  # schema arguments left to their default

    def tensor(self, spec, idx):
        dt = dtype_of(spec["type"]) if spec["type"] else None
        if dt is None:
            raise Unsupported("argument %d: the trace recorded no dtype"
                              % idx)
        shape = list(spec["shape"])
        strides = spec["strides"]
        if strides is None or len(strides) != len(shape):
            strides = contiguous_strides(shape)
        n = storage_size(shape, strides)
        init = spec.get("init") or "normal"
        if init == "zeros":
            vals = torch.zeros(n, dtype=torch.float64)
        elif init == "randint" or not is_float(dt):
            vals = torch.randint(0, 2, (n,), generator=self.gen,
                                 dtype=torch.int64)
        elif init == "positive":
            vals = torch.rand(n, generator=self.gen,
                              dtype=torch.float64) + 0.5
        else:
            vals = torch.randn(n, generator=self.gen, dtype=torch.float64)
        try:
            vals = vals.to(dt)          # rounded once, on the CPU
        except (RuntimeError, TypeError) as e:
            raise Unsupported("argument %d: cannot make %s data here: %s"
                              % (idx, dt, first_line(e)))
        t = fill(torch.empty_strided(shape, strides, dtype=dt,
                                     device=self.device), vals, n)
        rdt = torch.float64 if dt.is_floating_point else dt
        ref = None
        if self.ref_device is not None:
            ref = fill(torch.empty_strided(shape, strides, dtype=rdt,
                                           device=self.ref_device),
                       vals.to(rdt), n)
        meta = torch.empty_strided(shape, strides, dtype=dt, device="meta")
        self.built.append((idx, t, spec["type"]))
        return t, ref, meta


def fill(t, vals, n):
    if n > 0:
        torch.as_strided(t, (n,), (1,), 0).copy_(vals.to(t.device))
    return t


def first_line(e):
    """The first sentence of an error, for one line of output."""
    s = str(e).strip().splitlines()
    s = s[0] if s else type(e).__name__
    cut = s.find(". ", 40)
    return s[:cut + 1] if len(s) > 160 and cut > 0 else s


def kind_of(t):
    return t.kind()


def element(t):
    return t.getElementType()


def is_tensor_type(t):
    k = kind_of(t)
    if k == "OptionalType":
        return is_tensor_type(element(t))
    return k == "TensorType"


def as_int(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or \
            (isinstance(v, float) and not v.is_integer()):
        raise Mismatch("%s: %r is not an int" % (what, v))
    return int(v)


def convert(atype, aname, arg, b, idx):
    """Value of IR argument arg for a schema argument: (dev, ref, meta)."""
    k = kind_of(atype)
    kind = arg["kind"]
    if k == "OptionalType":
        if kind == "none" or (kind in ("scalar", "other") and
                              arg.get("value") is None):
            return None, None, None
        return convert(element(atype), aname, arg, b, idx)
    if kind == "none":
        raise Mismatch("argument %d is absent, %s is not optional"
                       % (idx, aname))
    if k == "TensorType":
        if kind != "tensor":
            raise Mismatch("argument %d is no tensor" % idx)
        return b.tensor(arg, idx)
    if k == "ListType":
        el = element(atype)
        if is_tensor_type(el):
            if kind != "tensor_list":
                raise Mismatch("argument %d is no tensor list" % idx)
            if not arg.get("shapes"):
                raise Unsupported("argument %d: the trace recorded no "
                                  "shapes for the tensor list" % idx)
            raise Unsupported("argument %d: the trace records no dtype "
                              "for the elements of a tensor list" % idx)
        if kind == "scalar":
            vals = [arg.get("value")]
        elif kind == "list":
            vals = arg["value"]
        else:
            raise Mismatch("argument %d is no list" % idx)
        if not isinstance(vals, list):
            raise Mismatch("argument %d is no list" % idx)
        ek = kind_of(el)
        if ek in ("IntType", "SymIntType"):
            v = [as_int(x, aname) for x in vals]
        elif ek == "BoolType":
            if not all(isinstance(x, bool) for x in vals):
                raise Mismatch("%s: not a list of bools" % aname)
            v = list(vals)
        elif ek == "FloatType":
            if not all(isinstance(x, (int, float)) and
                       not isinstance(x, bool) for x in vals):
                raise Mismatch("%s: not a list of floats" % aname)
            v = [float(x) for x in vals]
        else:
            raise Mismatch("%s: list of %s" % (aname, el))
        return v, v, v
    if kind not in ("scalar", "other"):
        raise Mismatch("argument %d is a %s, %s wants %s"
                       % (idx, kind, aname, atype))
    v = arg.get("value")
    if v is None:
        raise Unsupported("argument %d (%s): the trace recorded no value"
                          % (idx, aname))
    if k in ("IntType", "SymIntType"):
        i = as_int(v, aname)
        if aname in ("dtype", "out_dtype"):
            if i not in SCALAR_TYPES or \
                    getattr(torch, SCALAR_TYPES[i], None) is None:
                raise Unsupported("%s: ScalarType %d is not in this "
                                  "PyTorch" % (aname, i))
            d = getattr(torch, SCALAR_TYPES[i])
            return d, d, d
        if aname == "memory_format" and i in MEMORY_FORMATS:
            m = getattr(torch, MEMORY_FORMATS[i])
            return m, m, m
        return i, i, i
    if k == "FloatType":
        if isinstance(v, bool):
            raise Mismatch("%s: bool for a float" % aname)
        f = float(v)
        return f, f, f
    if k == "NumberType":
        if isinstance(v, str):
            v = float(v)            # "inf", "nan"
        return v, v, v
    if k == "BoolType":
        if not isinstance(v, bool):
            raise Mismatch("%s: %r is not a bool" % (aname, v))
        return v, v, v
    if k == "StringType":
        if not isinstance(v, str):
            raise Mismatch("%s: %r is not a string" % (aname, v))
        return v, v, v
    raise Mismatch("%s: type %s is not handled" % (aname, atype))


def schemas_of(name):
    if "::" not in name:
        if name.startswith("triton_"):
            raise Unsupported("a torch.compile (Triton) kernel, not an "
                              "ATen operator: rerun it from the model's "
                              "compiled code")
        raise Unsupported("not an ATen operator")
    try:
        return list(torch._C._jit_get_schemas_for_operator(name))
    except RuntimeError:
        return []


def op_callable(schema):
    ns, base = schema.name.split("::", 1)
    packet = getattr(getattr(torch.ops, ns), base)
    return getattr(packet, schema.overload_name or "default")


class Call:
    """One matched schema: the callable and its three argument sets."""

    def __init__(self, schema, fn, sets, builder):
        self.schema = schema
        self.fn = fn
        self.sets = sets            # "dev", "ref", "meta": (args, kwargs)
        self.builder = builder

    def run(self, which):
        a, kw = self.sets[which]
        return self.fn(*a, **kw)


def match(entry, device, ref_device, seed):
    """The first schema the IR's arguments fit, with its inputs built."""
    name = entry["op"]
    schemas = schemas_of(name)
    if not schemas:
        raise Unsupported("no operator %s in PyTorch %s"
                          % (name, torch.__version__))
    args = entry["args"]
    if not args and all(not f.has_default_value()
                        for s in schemas for f in list(s.arguments)[:1]):
        raise Unsupported("the trace records no arguments (profile with "
                          "record_shapes=True)")
    reasons = []
    for s in schemas:
        formal = list(s.arguments)
        if len(args) > len(formal) or any(
                not f.has_default_value() for f in formal[len(args):]):
            reasons.append("%s: %d arguments" % (overload(s), len(formal)))
            continue
        gen = torch.Generator().manual_seed(seed)
        b = Builder(device, ref_device, gen)
        sets = {"dev": ([], {}), "ref": ([], {}), "meta": ([], {})}
        by_name = False     # an argument left to its default: name the rest
        try:
            for i, (f, a) in enumerate(zip(formal, args)):
                if a["kind"] == "none" and f.has_default_value() and \
                        kind_of(f.type) != "OptionalType":
                    # The profiler records no value for some arguments
                    # (strings such as gelu's approximate): the
                    # schema's default is the best guess.
                    by_name = True
                    b.defaulted.append(f.name)
                    continue
                v = convert(f.type, f.name, a, b, i)
                for which, x in zip(("dev", "ref", "meta"), v):
                    if f.kwarg_only or by_name:
                        sets[which][1][f.name] = x
                    else:
                        sets[which][0].append(x)
        except Mismatch as e:
            reasons.append("%s: %s" % (overload(s), e))
            continue
        try:
            fn = op_callable(s)
        except (AttributeError, RuntimeError):
            reasons.append("%s: not callable from Python" % overload(s))
            continue
        return Call(s, fn, sets, b)
    raise Unsupported("no schema of %s in PyTorch %s fits the recorded "
                      "arguments (%s)" % (name, torch.__version__,
                                          "; ".join(reasons)))


def overload(schema):
    return schema.name + ("." + schema.overload_name
                          if schema.overload_name else "")


def outputs(x):
    """The outputs as a flat list (None for an undefined tensor)."""
    if isinstance(x, (tuple, list)):
        r = []
        for y in x:
            r.extend(outputs(y))
        return r
    return [x]


def checksum(x):
    if isinstance(x, torch.Tensor):
        if x.numel() == 0:
            return 0.0
        return float(x.detach().to("cpu").to(torch.float64 if not
                     x.is_complex() else torch.complex128).abs().sum())
    if isinstance(x, (bool, int, float)):
        return abs(float(x))
    return None


def tolerance(dt):
    attr = str(dt).replace("torch.", "")
    if attr.startswith("float8"):
        return TOLERANCE_FP8
    if not (dt.is_floating_point or dt.is_complex):
        return TOLERANCE_INT
    return TOLERANCE.get(attr, 1e-4)


def is_unsupported(e):
    if isinstance(e, (NotImplementedError, Unsupported)):
        return True
    msg = str(e)
    return isinstance(e, (RuntimeError, TypeError, ValueError)) and \
        any(t in msg for t in UNSUPPORTED_TEXT)


def sync(device):
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def bench(fn, device, warmup, iters, label):
    for _ in range(warmup):
        fn()
    sync(device)
    if iters <= 0:
        return None
    nvtx = getattr(getattr(torch, "cuda", None), "nvtx", None) \
        if device.startswith("cuda") else None
    if nvtx is not None:
        nvtx.range_push(label)
    if device.startswith("cuda"):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        us = start.elapsed_time(end) * 1e3 / iters
    else:
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        us = (time.perf_counter() - t0) * 1e6 / iters
    if nvtx is not None:
        nvtx.range_pop()
    return us


def check_outputs(entry, call, out, ref_out, meta_out, notes):
    """The checks of one op's outputs; a list of failures."""
    name = entry["op"]
    fails = []
    outs = outputs(out)
    random_op = any(r in name for r in RANDOM)
    uninit = any(u in name.split("::")[-1] for u in UNINITIALISED)
    if meta_out is not None:
        metas = outputs(meta_out)
        if len(metas) != len(outs):
            fails.append("%d outputs, the meta kernel gives %d"
                         % (len(outs), len(metas)))
            metas = None
    else:
        metas = None
        notes.append("no meta kernel: dtype not checked")
    refs = outputs(ref_out) if ref_out is not None else None
    if refs is not None and len(refs) != len(outs):
        fails.append("%d outputs, the reference gives %d"
                     % (len(outs), len(refs)))
        refs = None
    sums = []
    for i, x in enumerate(outs):
        if x is None:
            continue
        c = checksum(x)
        if c is None:
            continue
        sums.append(c)
        if isinstance(x, torch.Tensor):
            if metas is not None and isinstance(metas[i], torch.Tensor):
                if tuple(x.shape) != tuple(metas[i].shape):
                    fails.append("output %d: shape %s, expected %s"
                                 % (i, list(x.shape), list(metas[i].shape)))
                if x.dtype != metas[i].dtype:
                    fails.append("output %d: dtype %s, expected %s"
                                 % (i, x.dtype, metas[i].dtype))
            elif refs is not None and isinstance(refs[i], torch.Tensor):
                if tuple(x.shape) != tuple(refs[i].shape):
                    fails.append("output %d: shape %s, reference %s"
                                 % (i, list(x.shape), list(refs[i].shape)))
            if not uninit and not math.isfinite(c):
                fails.append("output %d: not finite (checksum %r)" % (i, c))
        if refs is None or random_op or uninit or refs[i] is None:
            continue
        rc = checksum(refs[i])
        if rc is None:
            continue
        tol = tolerance(x.dtype) if isinstance(x, torch.Tensor) else 1e-6
        err = abs(c - rc) / max(abs(rc), abs(c), 1e-30)
        if not err <= tol:
            fails.append("output %d: checksum %.6g, reference %.6g "
                         "(relative error %.2g > %.2g)"
                         % (i, c, rc, err, tol))
    if random_op:
        notes.append("random op: checksum not compared")
    if uninit:
        notes.append("uninitialised output: values not checked")
    return fails, sums


def check_inputs(entry, call):
    fails = []
    for idx, t, recorded in call.builder.built:
        a = entry["args"][idx]
        want_st = a["strides"] if a["strides"] is not None and \
            len(a["strides"]) == len(a["shape"]) else list(t.stride())
        if list(t.shape) != list(a["shape"]) or \
                list(t.stride()) != list(want_st) or \
                t.dtype != dtype_of(recorded):
            fails.append("input %d built as %s%s %s, recorded %s%s %s"
                         % (idx, list(t.shape), list(t.stride()), t.dtype,
                            a["shape"], a["strides"], recorded))
    return fails


def tsv_cell(text):
    """text as a TSV field the way tl writes them (PostgreSQL COPY text):
    backslash, tab, newline and carriage return escaped."""
    return (text.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def signature_columns(entry, call):
    """input_dims, input_strides, input_types of what ran (tl-parse's
    JSON), from the built tensors."""
    built = {}
    if call is not None:
        for idx, t, recorded in call.builder.built:
            built[idx] = (list(t.shape), list(t.stride()),
                          dtype_name(t.dtype, recorded))
    dims, strides, types = [], [], []
    for i, a in enumerate(entry["args"]):
        if i in built:
            d, s, t = built[i]
        elif a["kind"] == "tensor":
            d, s, t = a["shape"], a["strides"] or [], a["type"]
        elif a["kind"] == "tensor_list":
            d, s, t = a["shapes"] or [], a["strides"] or [], a["type"]
        else:
            d, s, t = [], [], a["type"]
        dims.append(d)
        strides.append(s)
        types.append(t)
    j = lambda x: json.dumps(x, separators=(",", ":"))
    return j(dims), j(strides), j(types)


def replay(entry, opts):
    """Replay one IR entry; a dict with the result."""
    res = {"status": "ok", "reason": "", "overload": "", "replayed_us": None,
           "checksum": None, "ref_checksum": None, "notes": [], "call": None}
    idx = entry["index"]
    seed = opts.seed + idx
    if entry.get("refused") or entry["op"] not in opts.allowed:
        res["status"] = "refused"
        res["reason"] = "%s" % (
            entry.get("refused") or "not on the runner's allow-list of "
            "tensor computations (%s)" % ALLOWED_FILE)
        return res
    flops = (entry.get("perf") or {}).get("flops")
    want_ref = not opts.no_ref and not (
        opts.ref_max_gflop is not None and flops is not None and
        flops > opts.ref_max_gflop * 1e9)
    skip = opts.max_gflop is not None and flops is not None and \
        flops > opts.max_gflop * 1e9
    want_ref = want_ref and not skip
    ref_devices = [None]
    if want_ref:
        ref_devices = [opts.device] + (["cpu"] if opts.device != "cpu"
                                       else [])
    try:
        call = match(entry, opts.device, ref_devices[0], seed)
    except Exception as e:          # noqa: B902 (classified below)
        if is_unsupported(e):
            res["status"], res["reason"] = "unsupported", first_line(e)
        else:
            res["status"] = "failed"
            res["reason"] = "building the inputs: %s: %s" % (
                type(e).__name__, first_line(e))
        return res
    res["call"] = call
    res["overload"] = overload(call.schema)
    for name in call.builder.defaulted:
        res["notes"].append("%s: not recorded, the schema's default used"
                            % name)
    fails = check_inputs(entry, call)
    if skip:
        try:
            meta = outputs(call.run("meta"))
            res["notes"].append("meta kernel: output shapes %s" % [
                list(m.shape) for m in meta if isinstance(m, torch.Tensor)])
        except Exception:           # noqa: B902 (no meta kernel)
            res["notes"].append("no meta kernel")
        if fails:
            res["status"], res["reason"] = "failed", "; ".join(fails)
        else:
            res["status"] = "skipped"
            res["reason"] = ("%.4g GFLOP, over --max-gflop %g: inputs "
                             "built and checked, op not run"
                             % (flops / 1e9, opts.max_gflop))
        return res
    try:
        out = call.run("dev")
        sync(opts.device)
    except Exception as e:          # noqa: B902
        if is_unsupported(e):
            res["status"], res["reason"] = "unsupported", first_line(e)
        else:
            res["status"] = "failed"
            res["reason"] = "%s: %s" % (type(e).__name__, first_line(e))
        return res
    try:
        meta_out = call.run("meta")
    except Exception:               # noqa: B902 (no meta kernel)
        meta_out = None
    ref_out = None
    if want_ref:
        for rd in ref_devices:
            try:
                if rd != ref_devices[0]:
                    c2 = match(entry, opts.device, rd, seed)
                    ref_out = c2.run("ref")
                else:
                    ref_out = call.run("ref")
                break
            except Exception:       # noqa: B902 (no float64 kernel there)
                ref_out = None
        if ref_out is None:
            res["notes"].append("no float64 reference run")
    else:
        res["notes"].append("reference skipped")
    f2, sums = check_outputs(entry, call, out, ref_out, meta_out,
                             res["notes"])
    fails += f2
    res["checksum"] = sum(s for s in sums if math.isfinite(s)) \
        if sums else None
    if ref_out is not None:
        rs = [checksum(x) for x in outputs(ref_out) if x is not None]
        rs = [x for x in rs if x is not None and math.isfinite(x)]
        res["ref_checksum"] = sum(rs) if rs else None
    if fails:
        res["status"], res["reason"] = "failed", "; ".join(fails)
        return res
    try:
        res["replayed_us"] = bench(lambda: call.run("dev"), opts.device,
                                   opts.warmup, opts.iters,
                                   "tl-replay %d %s" % (idx, entry["op"]))
    except Exception as e:          # noqa: B902
        res["status"] = "failed"
        res["reason"] = "timing: %s: %s" % (type(e).__name__, first_line(e))
    return res


def fmt(v, spec):
    return "" if v is None else spec % v


def selected(entry, want):
    if not want:
        return True
    for w in want:
        if w.isdigit() and int(w) == entry["index"]:
            return True
        if w == entry["op"] or "aten::" + w == entry["op"]:
            return True
    return False


# On the CPU an op above this many GFLOP (a GPU-sized GEMM runs at a few
# GFLOP/s in bf16 there) would take many minutes: build and check it only.
CPU_MAX_GFLOP = 100

STATUS_WORD = {"ok": "ok", "unsupported": "unsupported here",
               "skipped": "skipped", "failed": "FAIL", "refused": "refused"}


def rng_devices(device):
    """The devices whose random generators torch.random.fork_rng saves."""
    if not device.startswith("cuda"):
        return []
    d = torch.device(device)
    return [d.index if d.index is not None else torch.cuda.current_device()]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(
        description="Replay the ops of a tl-replay IR: rebuild each op "
        "with random inputs, check its outputs and time it.")
    p.add_argument("ir", nargs="?", default=os.path.join(
        here, "replay_ir.json"), help="the IR (default: replay_ir.json "
        "beside this script)")
    p.add_argument("--device", default="cuda", help="cuda (also ROCm), "
                   "cuda:N or cpu (default cuda)")
    p.add_argument("--op", action="append", default=[], metavar="N|NAME",
                   help="replay only these ops (index or name; "
                   "comma-separated; repeatable)")
    p.add_argument("--iters", type=int, default=50,
                   help="timed calls per op (default 50)")
    p.add_argument("--warmup", type=int, default=10,
                   help="untimed calls first (default 10)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the input data (default 0)")
    p.add_argument("--no-ref", action="store_true",
                   help="skip the float64 reference run")
    p.add_argument("--ref-max-gflop", type=float, metavar="X",
                   help="skip the reference for ops above X GFLOP")
    p.add_argument("--max-gflop", type=float, metavar="X",
                   help="do not run ops above X GFLOP: build and check "
                   "their inputs only (default: no limit on a GPU, %g on "
                   "the CPU; inf for none)" % CPU_MAX_GFLOP)
    p.add_argument("--threads", type=int, metavar="N",
                   help="PyTorch CPU threads")
    p.add_argument("--results", metavar="FILE",
                   help="also write one TSV row per op to FILE")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print each op's schema and notes")
    opts = p.parse_args()
    if opts.iters < 0 or opts.warmup < 0:
        p.error("--iters and --warmup must be 0 or more")
    if opts.device.startswith("cuda") and not torch.cuda.is_available():
        sys.stderr.write("replay.py: --device %s: no GPU is available to "
                         "this PyTorch\n" % opts.device)
        return 2
    if opts.threads:
        torch.set_num_threads(opts.threads)
    try:
        with open(opts.ir) as f:
            ir = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("replay.py: %s: %s\n" % (opts.ir, e))
        return 2
    if not isinstance(ir, list):
        sys.stderr.write("replay.py: %s: not a JSON list\n" % opts.ir)
        return 2
    opts.allowed = allowed_ops(here)
    if not opts.allowed:
        print("replay.py: %s: missing or empty beside the runner: every op "
              "is refused" % ALLOWED_FILE)
    want = [w for o in opts.op for w in o.split(",") if w]
    todo = [e for e in ir if selected(e, want)]
    if want and not todo:
        sys.stderr.write("replay.py: --op: no such op in %s\n" % opts.ir)
        return 2
    if opts.max_gflop is None and opts.device == "cpu":
        opts.max_gflop = CPU_MAX_GFLOP
    print("PyTorch %s, device %s, %d op(s); times in us per call"
          % (torch.__version__, opts.device, len(todo)))
    if opts.max_gflop is not None and opts.max_gflop != float("inf"):
        print("ops over %g GFLOP are built and checked, not run "
              "(--max-gflop)" % opts.max_gflop)
    rows = []
    for e in todo:
        # The op's random draws (dropout, normal_) are undone: no op
        # leaves the generators' state changed.
        with torch.random.fork_rng(devices=rng_devices(opts.device)):
            r = replay(e, opts)
        obs = (e.get("kernel_time_us") or {}).get("mean")
        line = "%3d  %-16s %-40s trace %10s  replay %10s" % (
            e["index"], STATUS_WORD[r["status"]], shown(e["op"]),
            fmt(obs, "%.3f"), fmt(r["replayed_us"], "%.3f"))
        if r["checksum"] is not None:
            line += "  sum|x| %.6g" % r["checksum"]
        print(line)
        if r["reason"]:
            print("       %s" % shown(r["reason"]))
        if opts.verbose:
            if r["call"] is not None:
                print("       schema: %s" % r["call"].schema)
            for n in r["notes"]:
                print("       note: %s" % shown(n))
        sys.stdout.flush()
        rows.append((e, r, obs))
    n = {k: sum(1 for _, r, _ in rows if r["status"] == k)
         for k in STATUS_WORD}
    print("%d ok, %d unsupported here, %d skipped, %d failed, %d refused"
          % (n["ok"], n["unsupported"], n["skipped"], n["failed"],
             n["refused"]))
    for e, r, _ in rows:
        if r["status"] in ("unsupported", "refused"):
            print("%s: %d %s: %s" % (STATUS_WORD[r["status"]], e["index"],
                                     shown(e["op"]), shown(r["reason"])))
    if opts.results:
        with open(opts.results, "w") as f:
            f.write("index\top\toverload\tstatus\tobserved_us\treplayed_us"
                    "\tchecksum\tref_checksum\tinput_dims\tinput_strides"
                    "\tinput_types\treason\n")
            for e, r, obs in rows:
                d, s, t = signature_columns(e, r["call"])
                f.write("\t".join(tsv_cell(c) for c in [
                    str(e["index"]), e["op"], r["overload"], r["status"],
                    fmt(obs, "%r"), fmt(r["replayed_us"], "%r"),
                    fmt(r["checksum"], "%r"), fmt(r["ref_checksum"], "%r"),
                    d, s, t, r["reason"]]) + "\n")
    return 1 if n["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
