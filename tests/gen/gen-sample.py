#!/usr/bin/env python3
"""Write a synthetic but realistic Kineto (PyTorch profiler) trace of ONE training
step of a small decoder-only transformer on an AMD Instinct MI300X (ROCm).

    python3 tests/gen/gen-sample.py [OUT.json.gz]
    (default OUT: share/tl/samples/mi300x-transformer-step.json.gz)

Deterministic: a fixed-seed random.Random drives the small CPU/GPU jitter, and the
gzip header carries no file name and mtime 0, so reruns give identical bytes.
Python 3 standard library only.

Model: 4 layers, hidden 2048, 16 heads x 128, SwiGLU FFN 5632, vocab 32000,
batch 4 x seq 2048, bf16, rank 0 of 8 (one all-reduce of a gradient bucket).
Kernel durations come from FLOPs (hipBLASLt GEMMs at ~420-620 TFLOPS, flash
attention at ~330/220 TFLOPS fwd/bwd) and bytes (elementwise at ~3.9 TB/s).
CPU-side costs are typical eager-mode dispatch costs; the GPU queue model lets
the CPU run ahead, so idle time appears where it does in real traces (step
start, the loss.item() sync before the optimizer, small kernels).

Event conventions copied from real ROCm Kineto traces: cpu_op / user_annotation
events per thread (autograd thread first), python_function events, then
cuda_runtime + ac2g flows and GPU events interleaved by ts, gpu_user_annotation,
ph "M" metadata, the "Trace" span and the two instant events. Non-launch
runtime calls (syncs, stream waits) get an "f" flow on the CPU thread, as
roctracer writes them. A summary goes to stderr.
"""

import gzip
import io
import json
import math
import os
import random
import sys
from contextlib import contextmanager

# ----------------------------------------------------------------------------- model
LAYERS, HID, HEADS, HDIM, FFN, VOCAB, BATCH, SEQ = 4, 2048, 16, 128, 5632, 32000, 4, 2048
TOK = BATCH * SEQ
BF, FP, LONG = "c10::BFloat16", "float", "long int"
EPS = 1e-6
LR, WD, BETA1, BETA2, ADAM_EPS, STEP = 3e-4, 0.1, 0.9, 0.999, 1e-8, 3
WORLD = 8

CPU_PID, MAIN, AUTO = 48213, 48213, 48391
GPU_DEV, STREAM, COMM = 0, 0, 4
T0 = 2718281828459045  # ns: ts 2718281828459.045 us, the trace start
BASE_TIME_NS = 1767225600000000000

# ----------------------------------------------------------------------------- kernel names
GEMM_TMPL = ("Cijk_{a}_{b}_BBS_BH_Bias_HAS_SAV_UserArgs_MT{mt}_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_"
             "CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_{gsu}_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB512_"
             "LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT{miwt}_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_"
             "NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_{sk}_TLDS1_ULSGRO0_USL1_UIOFGRO0_"
             "USFGROn1_VSn1_VWA8_VWB4_WSGRA0_WSGRB0_WS64_WG32_8_1")


def gemm_kernel(a, b, mt="256x256x64", miwt="8_8", streamk=False):
    return GEMM_TMPL.format(a=a, b=b, mt=mt, miwt=miwt,
                            gsu="GSUAMBSK" if streamk else "GSUAMB",
                            sk="SK3_SKXCCM8" if streamk else "SK0_SKXCCM0")


def _vec(n, functor, arity):
    return ("void at::native::vectorized_elementwise_kernel<%d, %s, std::array<char*, %dul> >"
            "(int, %s, std::array<char*, %dul>)" % (n, functor, arity, functor, arity))


def _unroll(n, functor):
    impl = "at::native::gpu_kernel_impl_nocast<%s%s>" % (functor, " " if functor.endswith(">") else "")
    return ("void at::native::elementwise_kernel_manual_unroll<128, %d, %s(at::TensorIteratorBase&, %s const&)"
            "::{lambda(int, bool)#1}>(int, %s(at::TensorIteratorBase&, %s const&)::{lambda(int, bool)#1})"
            % (n, impl, functor, impl, functor))


_MULF = "at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >"
K_MUL = _vec(8, _MULF, 3)
K_MUL_BCAST = _unroll(8, _MULF)
K_ADD = _vec(8, "at::native::CUDAFunctor_add<c10::BFloat16>", 3)
K_ADD_STRIDED = _unroll(8, "at::native::CUDAFunctor_add<c10::BFloat16>")
K_NEG = _unroll(8, "at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::"
                   "{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}")
K_COPY_BF16 = _unroll(8, "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
                         "{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}")
K_SILU = _vec(8, "at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::"
                 "{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}", 2)
K_SILU_BWD = _vec(8, "at::native::(anonymous namespace)::silu_backward_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::"
                     "{lambda()#6}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}", 3)
K_FILL_BF16 = _vec(8, "at::native::FillFunctor<c10::BFloat16>", 1)
K_FILL_F32 = _vec(4, "at::native::FillFunctor<float>", 1)
K_FILL_I32 = _vec(4, "at::native::FillFunctor<int>", 1)
K_COS = _vec(4, "at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::"
                "operator()() const::{lambda(float)#1}", 2)
K_SIN = _vec(4, "at::native::sin_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::"
                "operator()() const::{lambda(float)#1}", 2)
K_MUL_F32 = _unroll(4, "at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >")
K_TO_BF16 = _vec(4, "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}", 2)
K_TO_F32 = _vec(4, "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
                   "{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}", 2)
K_LONG_TO_F32 = _vec(4, "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
                        "{lambda()#7}::operator()() const::{lambda(long)#1}", 2)
K_CAT_BF16 = ("void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, "
              "unsigned int, 4, 64, 64>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::"
              "CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, "
              "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)")
K_CAT_F32 = K_CAT_BF16.replace("OpaqueType<2u>", "OpaqueType<4u>").replace("unsigned int, 4, 64, 64", "unsigned int, 3, 64, 64")
K_INDEX_SELECT = ("void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>"
                  "(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, "
                  "unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)")
K_SUM_BF16 = ("void at::native::reduce_kernel<128, 4, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, "
              "at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
              "unsigned int, c10::BFloat16, 4, 8> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, "
              "at::native::sum_functor<c10::BFloat16, float, c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
              "unsigned int, c10::BFloat16, 4, 8>)")
K_RMS_FWD = ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, true>(int, float, "
             "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)")
K_RMS_BWD_IN = ("void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<c10::BFloat16, float, true>(c10::BFloat16 const*, "
                "c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)")
K_RMS_BWD_PART = ("void at::native::(anonymous namespace)::cuComputePartGradGammaBeta<c10::BFloat16, float, true>(c10::BFloat16 const*, "
                  "c10::BFloat16 const*, long, long, float const*, float const*, float*, float*)")
K_RMS_BWD_GAMMA = ("void at::native::(anonymous namespace)::cuComputeGradGammaBeta<c10::BFloat16, float, true>(float const*, "
                   "float const*, int, long, long, c10::BFloat16*, c10::BFloat16*)")
K_SOFTMAX_FWD = ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
                 "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)")
K_SOFTMAX_BWD = ("void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, "
                 "at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)")
K_NLL_FWD = ("void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, "
             "float const*, long const*, float const*, bool, long, long, long, long)")
K_NLL_BWD = ("void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, "
             "long const*, float const*, float const*, bool, int, int, long, long)")
K_ARANGE = ("void (anonymous namespace)::elementwise_kernel_with_index<long, at::native::arange_cuda_out(c10::Scalar const&, "
            "c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#1}::operator()() const::"
            "{lambda(long)#1}>(long, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, "
            "at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#1}::operator()() const::{lambda(long)#1}, "
            "function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::"
            "{lambda()#1}::operator()() const::{lambda()#1}::operator()() const::{lambda(long)#1}>::result_type*)")
K_SORT_HIST = ("void rocprim::detail::onesweep_histograms_kernel<rocprim::detail::wrapped_radix_sort_onesweep_config<"
               "rocprim::default_config, long, long>, false, long*, unsigned long>(long*, unsigned long*, unsigned long, unsigned int, unsigned int)")
K_SORT_ITER = ("void rocprim::detail::onesweep_iteration_kernel<rocprim::detail::wrapped_radix_sort_onesweep_config<"
               "rocprim::default_config, long, long>, false, long*, long*, long*, long*, unsigned long>(long*, long*, long*, long*, "
               "unsigned long*, rocprim::detail::onesweep_lookback_state*, unsigned long, unsigned int, unsigned int, unsigned int)")
K_EMB_SEG = ("void at::native::(anonymous namespace)::krn_partials_per_segment<long>(long*, long const*, long, long)")
K_EMB_GRAD = ("void at::native::(anonymous namespace)::compute_grad_weight<c10::BFloat16, long>(long const*, c10::BFloat16 const*, "
              "long const*, long, long, long const*, long const*, at::AccumulateType<c10::BFloat16, true>::type*, long)")
K_EMB_SCATTER = ("void at::native::(anonymous namespace)::sum_and_scatter<c10::BFloat16, long>(long const*, c10::BFloat16*, long, "
                 "long const*, long const*, at::AccumulateType<c10::BFloat16, true>::type const*, long const*, long, long)")
K_FA_FWD, K_FA_BWD_PRE, K_FA_BWD_DKDV, K_FA_BWD_DQ = "attn_fwd", "bwd_preprocess", "bwd_kernel_dk_dv", "bwd_kernel_dq"
K_NCCL = "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)"


def mta_kernel(depth, functor, op=None):
    ns = "at::native::(anonymous namespace)::"
    md = "%sTensorListMetadata<%d>" % (ns, depth)
    parts = [md, ns + functor] + ([op] if op else []) + ["float"]
    inner = ", ".join(parts)
    return "void %smulti_tensor_apply_kernel<%s>(%s)" % (ns, inner, inner)


# ----------------------------------------------------------------------------- arg helpers
def contig(shape):
    st, acc = [], 1
    for d in reversed(shape):
        st.append(acc)
        acc *= d
    return list(reversed(st))


def Ten(shape, dt=BF, strides=None):
    return (list(shape), dt, list(strides) if strides is not None else contig(shape), "")


def fmt_double(x):
    s = "%.17g" % x
    if "." not in s and "e" not in s and "n" not in s:
        s += "."
    return s


def Sc(v):
    if isinstance(v, bool):
        c = "True" if v else "False"
    elif isinstance(v, int):
        c = str(v)
    elif isinstance(v, float):
        c = fmt_double(v)
    else:
        c = v
    return ([], "Scalar", [], c)


def SL(lst):
    return ([], "ScalarList", [], "[" + ", ".join(fmt_double(x) if isinstance(x, float) else str(x) for x in lst) + "]")


NONE = ([], "", [], "")


def TL(tensors):
    return ([t[0] for t in tensors], "TensorList", [t[2] for t in tensors], "")


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def fmt_ts(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


# ----------------------------------------------------------------------------- the simulator
API = {  # name: (cid, min us, max us)
    "hipLaunchKernel": (107, 4.0, 8.0),
    "hipExtModuleLaunchKernel": (65, 6.0, 10.0),
    "hipModuleLaunchKernel": (169, 9.0, 15.0),
    "hipExtLaunchKernel": (62, 5.0, 8.0),
    "hipMemcpyAsync": (134, 7.0, 12.0),
    "hipMemsetAsync": (126, 4.0, 7.0),
    "hipStreamWaitEvent": (200, 2.0, 5.0),
    "hipDeviceSynchronize": (48, 0, 0),
    "hipStreamSynchronize": (219, 0, 0),
}


class Node:
    def __init__(self, seq, name, grads, body, accum, params, fb):
        self.seq, self.name, self.grads, self.body, self.accum, self.params, self.fb = \
            seq, name, grads, body, accum, params, fb


class Sim:
    def __init__(self):
        self.rng = random.Random(20250603)
        self.clock = {MAIN: T0, AUTO: T0}
        self.stack = {MAIN: [], AUTO: []}
        self.tid = MAIN
        self.cpu = []      # cpu_op / user_annotation / python_function (+ fwdbwd flows), creation order
        self.rt = []       # (runtime event, flow event)
        self.gpu = []      # (gpu event, flow event)
        self.ext = 0
        self.corr = 71234
        self.pyid = 0
        self.seqn = 1742
        self.fbid = 0
        self.free = {STREAM: T0, COMM: T0}
        self.nodes = []
        self.after_node = {}
        self.module_count = {}

    # -- time helpers (all in integer ns)
    def u(self, a, b):
        return int(round(self.rng.uniform(a, b) * 1000))

    def adv(self, a, b):
        self.clock[self.tid] += self.u(a, b)

    def kgap(self):
        if self.rng.random() < 0.65:
            return 1
        return self.u(0.8, 4.0)

    def jit(self, us, lo=0.97, hi=1.03):
        return int(round(us * self.rng.uniform(lo, hi) * 1000))

    # -- host events
    def _open(self, cat, name, args, pre):
        self.adv(*pre)
        e = {"ph": "X", "cat": cat, "name": name, "pid": CPU_PID, "tid": self.tid,
             "ts": self.clock[self.tid], "args": args}
        self.cpu.append(e)
        self.stack[self.tid].append(e)
        return e

    def _close(self, e, post):
        self.stack[self.tid].pop()
        self.adv(*post)
        e["dur"] = self.clock[self.tid] - e["ts"]

    def next_ext(self):
        self.ext += 1
        return self.ext

    def take_seq(self):
        s = self.seqn
        self.seqn += 1
        return s

    @contextmanager
    def op(self, name, inputs=(), seq=None, kind="fwd", cost=(0.6, 2.5), pre=(0.4, 1.5), node=None):
        """A cpu_op. kind: fwd (forward thread), bwdnode (XxxBackward0), plain args order otherwise.
        node = (NodeName, grad_inputs, body, accum, params): register an autograd node."""
        a = {"External id": self.next_ext()}
        if seq is not None and kind == "fwd":
            a["Sequence number"] = seq
            a["Fwd thread id"] = 0
            a["Record function id"] = 0
        elif seq is not None and kind == "bwdnode":
            a["Sequence number"] = seq
            a["Fwd thread id"] = 1
            a["Record function id"] = 0
        else:
            a["Record function id"] = 0
        a["Concrete Inputs"] = [i[3] for i in inputs]
        a["Input type"] = [i[1] for i in inputs]
        a["Input Strides"] = [i[2] for i in inputs]
        a["Input Dims"] = [i[0] for i in inputs]
        e = self._open("cpu_op", name, a, pre)
        if node is not None:
            self.fbid += 1
            self.cpu.append({"ph": "s", "id": self.fbid, "pid": CPU_PID, "tid": self.tid, "ts": e["ts"],
                             "cat": "fwdbwd", "name": "fwdbwd"})
            nname, grads, body, accum, params = (list(node) + [None, None])[:5]
            self.nodes.append(Node(seq, nname, grads, body, accum, params or [], self.fbid))
        split = self.rng.uniform(0.35, 0.65)
        c = self.u(*cost)
        self.clock[self.tid] += int(c * split)
        try:
            yield e
        finally:
            self.clock[self.tid] += c - int(c * split)
            self._close(e, (0.3, 1.0))

    @contextmanager
    def annotation(self, name, extra=None, pre=(0.5, 2.0), post=(0.5, 2.0)):
        a = {"External id": self.next_ext(), "Record function id": 0}
        if extra:
            a.update(extra)
        e = self._open("user_annotation", name, a, pre)
        try:
            yield e
        finally:
            self._close(e, post)

    @contextmanager
    def evaluate(self, seq, name):
        a = {"External id": self.next_ext(), "Record function id": 0}
        if seq is not None:
            a["Sequence number"] = seq
            a["Fwd thread id"] = 1
        e = self._open("cpu_op", "autograd::engine::evaluate_function: " + name, a, (1.0, 3.0))
        try:
            yield e
        finally:
            self._close(e, (0.8, 2.5))

    @contextmanager
    def py(self, name, module=False, pre=(1.0, 4.0), post=(0.8, 3.0)):
        self.pyid += 1
        parent = None
        for x in reversed(self.stack[self.tid]):
            if x["cat"] == "python_function":
                parent = x["args"]["Python id"]
                break
        a = {"Python parent id": parent}
        if module:
            a["Python module id"] = 0
        a["Python id"] = self.pyid
        e = self._open("python_function", name, a, pre)
        try:
            yield e
        finally:
            self._close(e, post)

    @contextmanager
    def module(self, cls, line):
        n = self.module_count.get(cls, 0)
        self.module_count[cls] = n + 1
        with self.py("torch/nn/modules/module.py(1751): _wrapped_call_impl", pre=(1.5, 4.0), post=(0.5, 1.5)):
            with self.py("torch/nn/modules/module.py(1762): _call_impl", pre=(1.0, 3.0), post=(0.5, 1.5)):
                with self.py("nn.Module: %s_%d" % (cls, n), module=True, pre=(1.5, 4.0), post=(1.0, 3.0)):
                    with self.py("model.py(%d): forward" % line, pre=(0.8, 2.0), post=(0.6, 1.8)):
                        yield

    def cur_ext(self):
        for x in reversed(self.stack[self.tid]):
            if x["cat"] == "cpu_op":
                return x["args"]["External id"]
        return None

    # -- runtime + GPU
    def _runtime(self, api, extra, dur=None):
        self.adv(0.8, 3.0)
        ts = self.clock[self.tid]
        cid, lo, hi = API[api]
        self.corr += 1
        a = {}
        ext = self.cur_ext()
        if ext is not None:
            a["External id"] = ext
        a.update(extra.get("pre", {}))
        a["cid"] = cid
        a["correlation"] = self.corr
        a.update(extra.get("post", {}))
        r = {"ph": "X", "cat": "cuda_runtime", "name": api, "pid": CPU_PID, "tid": self.tid, "ts": ts,
             "dur": dur if dur is not None else self.u(lo, hi), "args": a}
        return r

    def _gpu_start(self, r, stream):
        return max(r["ts"] + self.u(18.0, 32.0), self.free[stream] + self.kgap())

    def kernel(self, name, us, api="hipLaunchKernel", grid=(1, 1, 1), block=(256, 1, 1), shm=0, stream=STREAM):
        r = self._runtime(api, {"pre": {"kernel": name},
                                "post": {"grid": list(grid), "block": list(block), "shared memory": shm}})
        start = self._gpu_start(r, stream)
        dur = max(1000, int(round(us * 1000)))
        self.free[stream] = start + dur
        k = {"ph": "X", "cat": "kernel", "name": name, "pid": GPU_DEV, "tid": stream, "ts": start, "dur": dur,
             "args": {"External id": r["args"].get("External id"), "device": GPU_DEV, "stream": stream,
                      "correlation": r["args"]["correlation"], "kind": "Dispatch Kernel",
                      "grid": list(grid), "block": list(block)}}
        if k["args"]["External id"] is None:
            del k["args"]["External id"]
        self._emit_launch(r, k)
        return k

    def _emit_launch(self, r, g):
        if g["args"].get("External id", 0) is None:
            del g["args"]["External id"]
        c = r["args"]["correlation"]
        self.rt.append((r, {"ph": "s", "id": c, "pid": CPU_PID, "tid": self.tid, "ts": r["ts"], "cat": "ac2g", "name": "ac2g"}))
        self.gpu.append((g, {"ph": "f", "id": c, "pid": g["pid"], "tid": g["tid"], "ts": g["ts"],
                             "cat": "ac2g", "name": "ac2g", "bp": "e"}))
        self.clock[self.tid] = r["ts"] + r["dur"]

    def _emit_plain(self, r):
        c = r["args"]["correlation"]
        self.rt.append((r, {"ph": "f", "id": c, "pid": CPU_PID, "tid": self.tid, "ts": r["ts"],
                            "cat": "ac2g", "name": "ac2g", "bp": "e"}))
        self.clock[self.tid] = r["ts"] + r["dur"]

    def memcpy(self, kind, nbytes, stream=STREAM):
        names = {"HtoD": ("Memcpy HtoD (Host -> Device)", "1", 24.0e3),
                 "DtoH": ("Memcpy DtoH (Device -> Host)", "2", 20.0e3)}
        gname, kcode, bw = names[kind]
        src, dst = ("0x7f3a5c000000", "0x7f1c2e400000") if kind == "HtoD" else ("0x7f1c2e600000", "0x7f3a5c010000")
        r = self._runtime("hipMemcpyAsync", {"post": {"src": src, "dst": dst, "bytes": str(nbytes), "kind": kcode}})
        start = self._gpu_start(r, stream)
        dur = int(round((1.4 + nbytes / bw) * 1000 * self.rng.uniform(0.95, 1.05)))
        self.free[stream] = start + dur
        g = {"ph": "X", "cat": "gpu_memcpy", "name": gname, "pid": GPU_DEV, "tid": stream, "ts": start, "dur": dur,
             "args": {"External id": r["args"].get("External id"), "device": GPU_DEV, "stream": stream,
                      "correlation": r["args"]["correlation"], "kind": kind, "bytes": nbytes,
                      "memory bandwidth (GB/s)": nbytes / (dur / 1e9) / 1e9}}
        self._emit_launch(r, g)

    def memset(self, nbytes, stream=STREAM):
        r = self._runtime("hipMemsetAsync", {"post": {"dst": "0x7f1d00000000", "value": "0", "sizeBytes": str(nbytes)}})
        start = self._gpu_start(r, stream)
        dur = int(round((1.0 + nbytes / 3.6e6) * 1000))
        self.free[stream] = start + dur
        g = {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": GPU_DEV, "tid": stream, "ts": start,
             "dur": dur, "args": {"External id": r["args"].get("External id"), "device": GPU_DEV, "stream": stream,
                                  "correlation": r["args"]["correlation"], "kind": "Device"}}
        self._emit_launch(r, g)

    def sync(self, api, streams):
        r = self._runtime(api, {}, dur=0)
        end = max(r["ts"] + self.u(2.0, 5.0), max(self.free[s] for s in streams) + self.u(4.0, 9.0))
        r["dur"] = end - r["ts"]
        self._emit_plain(r)

    def stream_wait(self, waiter, waitee):
        r = self._runtime("hipStreamWaitEvent", {})
        self.free[waiter] = max(self.free[waiter], self.free[waitee])
        self._emit_plain(r)


sim = Sim()
rng_kernel = random.Random(77)


# ----------------------------------------------------------------------------- cost models (us)
def t_mem(nbytes, bw=3.9e12):
    return (2.2 + nbytes / bw * 1e6) * rng_kernel.uniform(0.96, 1.05)


def t_gemm(M, N, K):
    flops = 2.0 * M * N * K
    tflops = 625.0 * (1.0 - math.exp(-flops / 6.0e10))
    return flops / (tflops * 1e12) * 1e6 * rng_kernel.uniform(0.97, 1.04)


def ew_grid(n, vec=8):
    wg = max(1, math.ceil(n / (256 * vec * 4)))
    return (min(wg, 65535 * 4), 1, 1)


def gemm_tile(M, N):
    if N >= 4096 and M >= 4096:
        return "256x256x64", "8_8", 256, 256
    return "256x128x64", "8_4", 256, 128


def launch_gemm(M, N, K, a, b, streamk=False):
    mt, miwt, t0, t1 = gemm_tile(M, N)
    wg = math.ceil(M / t0) * math.ceil(N / t1)
    sim.kernel(gemm_kernel(a, b, mt, miwt, streamk), t_gemm(M, N, K), api="hipExtModuleLaunchKernel",
               grid=(wg * 256, 1, 1), block=(256, 1, 1))


# ----------------------------------------------------------------------------- small op helpers
def view_like(name, x, args, seq=None, node=None, inner=None):
    with sim.op(name, [x] + args, seq=seq, cost=(0.5, 2.0), node=node):
        if inner:
            inner()


def as_strided(x, size, stride, off=""):
    view_like("aten::as_strided", x, [SL(size), SL(stride), NONE if off == "" else Sc(off)])


def transpose(x, d0, d1, seq=None, node=None):
    shape, dt, st, _ = x
    nshape, nst = list(shape), list(st)
    nshape[d0], nshape[d1] = nshape[d1], nshape[d0]
    nst[d0], nst[d1] = nst[d1], nst[d0]
    view_like("aten::transpose", x, [Sc(d0), Sc(d1)], seq=seq, node=node,
              inner=lambda: as_strided(x, nshape, nst))
    return Ten(nshape, dt, nst)


def t_op(x, seq=None, node=None):
    shape, dt, st, _ = x
    nshape, nst = [shape[1], shape[0]], [st[1], st[0]]
    with sim.op("aten::t", [x], seq=seq, cost=(0.6, 2.0), node=node):
        transpose(x, 0, 1)
    return Ten(nshape, dt, nst)


def view(x, shape, seq=None, node=None, listed=None):
    view_like("aten::view", x, [SL(listed if listed is not None else shape)], seq=seq, node=node)
    return Ten(shape, x[1])


def reshape(x, shape, seq=None, node=None, listed=None):
    with sim.op("aten::reshape", [x, SL(listed if listed is not None else shape)], seq=seq, cost=(0.8, 2.5)):
        view(x, shape, seq=seq, node=node, listed=listed)
    return Ten(shape, x[1])


def empty(shape, dtype_code, extra=("", "", "")):
    with sim.op("aten::empty", [SL(shape), Sc(dtype_code), NONE if extra[0] == "" else Sc(extra[0]), NONE, NONE,
                                NONE if extra[2] == "" else Sc(extra[2])], cost=(0.8, 3.0)):
        pass


def empty_like(x, dtype_code=15):
    with sim.op("aten::empty_like", [x, Sc(dtype_code), Sc(0), NONE, NONE, Sc(0)], cost=(1.5, 4.0)):
        empty(x[0], dtype_code, ("0", "", "0"))


def empty_strided(shape, strides, dtype_code):
    with sim.op("aten::empty_strided", [SL(shape), SL(strides), Sc(dtype_code), Sc(0), NONE, Sc(False)], cost=(1.0, 3.5)):
        pass


def detach(x):
    with sim.op("aten::detach", [x], cost=(0.5, 1.5)):
        with sim.op("detach", [x], cost=(0.3, 1.0)):
            pass


def hipblaslt_workspace():
    empty([79691776], 0, ("", "", ""))


def fill_(x, val, kname, nbytes_per=2):
    with sim.op("aten::fill_", [x, Sc(val)], cost=(3.0, 7.0)):
        sim.kernel(kname, t_mem(numel(x[0]) * nbytes_per), grid=ew_grid(numel(x[0])))


def zeros(shape, dtype_code, kname, bpe):
    with sim.op("aten::zeros", [SL(shape), Sc(dtype_code), Sc(0), NONE, NONE], cost=(2.0, 5.0)):
        empty(shape, dtype_code, ("0", "", ""))
        t = Ten(shape, {15: BF, 6: FP, 3: "int"}[dtype_code])
        with sim.op("aten::zero_", [t], cost=(1.0, 3.0)):
            fill_(t, 0, kname, bpe)
    return Ten(shape, {15: BF, 6: FP, 3: "int"}[dtype_code])


def ew(name, inputs, out_numel, nbytes, kname, seq=None, node=None, cost=(5.0, 11.0)):
    with sim.op(name, inputs, seq=seq, cost=cost, node=node):
        sim.kernel(kname, t_mem(nbytes), grid=ew_grid(out_numel))


def copy_(dst, src, kname, nb_dst, nb_src, non_blocking=False):
    with sim.op("aten::copy_", [dst, src, Sc(non_blocking)], cost=(4.0, 9.0)):
        n = numel(dst[0])
        sim.kernel(kname, t_mem(n * (nb_dst + nb_src)), grid=ew_grid(n, 4))


def to_copy_gpu(x, dtype_code, out_dt, kname, nb_src, nb_dst, seq=None, node=None):
    """aten::to -> aten::_to_copy -> empty_strided + copy_ (on device)."""
    with sim.op("aten::to", [x, Sc(dtype_code), Sc(False), Sc(False), NONE], seq=seq, cost=(1.5, 4.0)):
        with sim.op("aten::_to_copy", [x, Sc(dtype_code), NONE, NONE, NONE, Sc(False), NONE], seq=seq, cost=(2.0, 5.0),
                    node=node):
            empty_strided(x[0], contig(x[0]), dtype_code)
            copy_(Ten(x[0], out_dt), x, kname, nb_dst, nb_src)
    return Ten(x[0], out_dt)


def accumulate(x):
    """gradient accumulation in the autograd input buffer (a second gradient for x arrives)."""
    n = numel(x[0])
    ew("aten::add_", [x, x, Sc(1)], n, 3 * 2 * n, K_ADD)


def acc_grad(p):
    with sim.evaluate(None, "torch::autograd::AccumulateGrad"):
        with sim.op("torch::autograd::AccumulateGrad", [p], cost=(1.0, 3.0)):
            detach(p)


# ----------------------------------------------------------------------------- forward building blocks
X3 = Ten([BATCH, SEQ, HID])
X2 = Ten([TOK, HID])


def linear(x3, n_out, bias, tag):
    """aten::linear on [B,S,K] -> [B,S,N], with the autograd nodes it creates."""
    k_in = x3[0][-1]
    W = Ten([n_out, k_in])
    Bv = Ten([n_out])
    x2 = Ten([TOK, k_in])
    o2 = Ten([TOK, n_out])
    o3 = Ten([BATCH, SEQ, n_out])
    Wt = Ten([k_in, n_out], BF, [1, k_in])
    M, N, K = TOK, n_out, k_in

    def mm_backward_body(grad2, mat1, mat2, with_bias, streamk=False):
        def body():
            t_op(mat2)                                   # mat2.t() = W
            with sim.op("aten::mm", [grad2, Ten([N, K])], cost=(8.0, 16.0)):
                hipblaslt_workspace()
                launch_gemm(M, K, N, "Ailk", "Bljk")
            gT = t_op(grad2)                             # grad.t()
            with sim.op("aten::mm", [gT, mat1], cost=(8.0, 16.0)):
                hipblaslt_workspace()
                if streamk:
                    sim.memset(N * K * 4)
                launch_gemm(N, K, M, "Ailk", "Bjlk", streamk=streamk)
            t_op(Ten([N, K]))
            if with_bias:
                with sim.op("aten::sum", [grad2, SL([0]), Sc(True), NONE], cost=(6.0, 12.0)):
                    sim.kernel(K_SUM_BF16, t_mem(M * N * 2), grid=(min(4096, N), 1, 1), block=(128, 4, 1))
                view(Ten([1, N]), [N])
        return body

    seq0 = sim.seqn
    with sim.op("aten::linear", [x3, W, Bv if bias else NONE], seq=seq0, cost=(4.0, 9.0)):
        if bias:
            s_view_in = sim.take_seq()
            reshape(x3, [TOK, k_in], seq=s_view_in,
                    node=("ViewBackward0", [x2], lambda: reshape(x2, [BATCH, SEQ, k_in]), tag.get("accum_in")))
            s_t = sim.take_seq()
            t_op(W, seq=s_t, node=("TBackward0", [Wt], lambda: t_op(Wt), None, [W]))
            s_mm = sim.take_seq()
            with sim.op("aten::addmm", [Bv, x2, Wt, Sc(1), Sc(1)], seq=s_mm, cost=(9.0, 18.0),
                        node=("AddmmBackward0", [o2], mm_backward_body(o2, x2, Wt, True), None, [Bv])):
                hipblaslt_workspace()
                launch_gemm(M, N, K, "Alik", "Bljk")
            s_v = sim.take_seq()
            view(o2, [BATCH, SEQ, n_out], seq=s_v, node=("ViewBackward0", [o3], lambda: reshape(o3, [TOK, n_out])))
        else:
            s_t = sim.take_seq()
            t_op(W, seq=s_t, node=("TBackward0", [Wt], lambda: t_op(Wt), None, [W]))
            with sim.op("aten::matmul", [x3, Wt], seq=sim.seqn, cost=(3.0, 7.0)):
                s_view_in = sim.take_seq()
                reshape(x3, [TOK, k_in], seq=s_view_in,
                        node=("ViewBackward0", [x2], lambda: reshape(x2, [BATCH, SEQ, k_in]), tag.get("accum_in")))
                s_mm = sim.take_seq()
                with sim.op("aten::mm", [x2, Wt], seq=s_mm, cost=(8.0, 16.0),
                            node=("MmBackward0", [o2], mm_backward_body(o2, x2, Wt, False, tag.get("streamk", False)))):
                    hipblaslt_workspace()
                    launch_gemm(M, N, K, "Alik", "Bljk")
                s_uv = sim.take_seq()
                view_like("aten::_unsafe_view", o2, [SL([BATCH, SEQ, n_out])], seq=s_uv,
                          node=("UnsafeViewBackward0", [o3], lambda: reshape(o3, [TOK, n_out])))
    return o3, W, (Bv if bias else None)


def rmsnorm(x3, accum_bwd):
    w = Ten([HID])
    rstd = Ten([BATCH, SEQ, 1], FP)
    seq0 = sim.seqn
    with sim.module("RMSNorm", 61):
        with sim.op("aten::rms_norm", [x3, SL([HID]), w, Sc(EPS)], seq=seq0, cost=(3.0, 7.0)):
            s = sim.take_seq()

            def body():
                with sim.op("aten::_fused_rms_norm_backward",
                            [x3, x3, SL([HID]), rstd, w, SL(["True", "True"])], cost=(8.0, 16.0)):
                    sim.kernel(K_RMS_BWD_IN, t_mem(TOK * HID * 2 * 3), grid=(TOK, 1, 1), block=(256, 1, 1))
                    sim.kernel(K_RMS_BWD_PART, t_mem(TOK * HID * 2 * 2) * 0.55, grid=(64, 32, 1), block=(32, 16, 1))
                    sim.kernel(K_RMS_BWD_GAMMA, 4.1, grid=(64, 1, 1), block=(32, 8, 1))

            with sim.op("aten::_fused_rms_norm", [x3, SL([HID]), w, Sc(EPS)], seq=s, cost=(6.0, 12.0),
                        node=("FusedRmsNormBackward0", [x3, NONE], body, (lambda: accumulate(x3)) if accum_bwd else None, [w])):
                empty_like(x3)
                with sim.op("aten::empty", [SL([BATCH, SEQ, 1]), Sc(6), Sc(0), NONE, NONE, NONE], cost=(0.8, 2.5)):
                    pass
                sim.kernel(K_RMS_FWD, t_mem(TOK * HID * 2 * 2), grid=(TOK, 1, 1), block=(256, 1, 1))
    return Ten([BATCH, SEQ, HID]), w


def rotary(xT, cosU, sinU):
    """HF apply_rotary_pos_emb on one of q/k: x*cos + rotate_half(x)*sin."""
    shape = xT[0]
    n = numel(shape)
    half = [shape[0], shape[1], shape[2], HDIM // 2]
    nh = numel(half)
    xh = Ten(half, BF, xT[2])
    cont_half = Ten(half)
    catout = Ten(shape)
    mul1 = Ten(shape, BF, xT[2])
    grad = Ten(shape)

    def slice_bwd(lo, hi):
        def body():
            with sim.op("aten::slice_backward", [Ten(half), SL(shape), Sc(3), Sc(lo), Sc(hi), Sc(1)], cost=(3.0, 7.0)):
                z = zeros(shape, 15, K_FILL_BF16, 2)
                view_like("aten::slice", z, [Sc(3), Sc(lo), Sc(hi), Sc(1)],
                          inner=lambda: as_strided(z, half, contig(shape), lo))
                copy_(Ten(half, BF, contig(shape)), Ten(half), K_COPY_BF16, 2, 2)
        return body

    s = sim.take_seq()
    ew("aten::mul", [xT, cosU], n, n * 2 * 2 + SEQ * HDIM * 2, K_MUL_BCAST, seq=s,
       node=("MulBackward0", [grad], lambda: ew("aten::mul", [grad, cosU], n, n * 4, K_MUL_BCAST), lambda: accumulate(grad)))
    s = sim.take_seq()
    view_like("aten::slice", xT, [Sc(3), Sc(0), Sc(HDIM // 2), Sc(1)], seq=s,
              node=("SliceBackward0", [cont_half], slice_bwd(0, HDIM // 2), lambda: accumulate(grad)),
              inner=lambda: as_strided(xT, half, xT[2], 0))
    s = sim.take_seq()
    view_like("aten::slice", xT, [Sc(3), Sc(HDIM // 2), Sc(9223372036854775807), Sc(1)], seq=s,
              node=("SliceBackward0", [cont_half], slice_bwd(HDIM // 2, 9223372036854775807)),
              inner=lambda: as_strided(xT, half, xT[2], HDIM // 2))
    s = sim.take_seq()
    ew("aten::neg", [xh], nh, nh * 4, K_NEG, seq=s,
       node=("NegBackward0", [cont_half], lambda: ew("aten::neg", [cont_half], nh, nh * 4, K_NEG)))
    s = sim.take_seq()

    def cat_bwd():
        for lo, hi in ((0, HDIM // 2), (HDIM // 2, HDIM)):
            with sim.op("aten::narrow", [grad, Sc(3), Sc(lo), Sc(hi - lo)], cost=(0.8, 2.0)):
                view_like("aten::slice", grad, [Sc(3), Sc(lo), Sc(hi), Sc(1)],
                          inner=lambda lo=lo: as_strided(grad, half, contig(shape), lo))

    with sim.op("aten::cat", [TL([cont_half, xh]), Sc(-1)], seq=s, cost=(6.0, 12.0),
                node=("CatBackward0", [grad], cat_bwd)):
        sim.kernel(K_CAT_BF16, t_mem(n * 4), grid=(nh // 256, 2, 1), block=(64, 1, 1))
    s = sim.take_seq()
    ew("aten::mul", [catout, sinU], n, n * 4 + SEQ * HDIM * 2, K_MUL_BCAST, seq=s,
       node=("MulBackward0", [grad], lambda: ew("aten::mul", [grad, sinU], n, n * 4, K_MUL_BCAST)))
    s = sim.take_seq()
    ew("aten::add", [mul1, catout, Sc(1)], n, n * 6, K_ADD_STRIDED, seq=s, node=("AddBackward0", [grad], None))
    return Ten(shape, BF, xT[2])


def contiguous(x, dst_strides=None):
    out = Ten(x[0], x[1], dst_strides)
    n = numel(x[0])
    with sim.op("aten::contiguous", [x, Sc(0)], seq=sim.seqn, cost=(1.0, 3.0)):
        s = sim.take_seq()
        with sim.op("aten::clone", [x, Sc(0)], seq=s, cost=(2.0, 5.0), node=("CloneBackward0", [out], None)):
            empty_like(x)
            copy_(out, x, K_COPY_BF16, 2, 2)
    return out


def attention(xn, cos3, cosU, sinU, li):
    params = []
    with sim.module("Attention", 88):
        heads = []
        for j, name in enumerate(("q", "k", "v")):
            with sim.module("Linear", 125):
                o3, W, Bv = linear(xn, HID, True, {"accum_in": (lambda: accumulate(xn)) if j < 2 else None})
            params += [W, Bv]
            s = sim.take_seq()
            q4 = Ten([BATCH, SEQ, HEADS, HDIM])
            view(o3, q4[0], seq=s, listed=[BATCH, SEQ, -1, HDIM],
                 node=("ViewBackward0", [q4], lambda: reshape(q4, [BATCH, SEQ, HID], listed=[BATCH, SEQ, HID])))
            s = sim.take_seq()
            qT = transpose(q4, 1, 2, seq=s, node=("TransposeBackward0", [Ten([BATCH, HEADS, SEQ, HDIM])],
                                                  lambda: transpose(Ten([BATCH, HEADS, SEQ, HDIM]), 1, 2)))
            heads.append(qT)
        q, k, v = heads
        for t in (cos3, cos3):  # cos.unsqueeze(1), sin.unsqueeze(1) in apply_rotary_pos_emb
            view_like("aten::unsqueeze", t, [Sc(1)], inner=lambda t=t: as_strided(t, cosU[0], cosU[2]))
        q = rotary(q, cosU, sinU)
        k = rotary(k, cosU, sinU)
        q, k, v = contiguous(q), contiguous(k), contiguous(v)
        scale = 1.0 / math.sqrt(HDIM)
        bhsd = Ten([BATCH, HEADS, SEQ, HDIM])
        bshd_t = Ten([BATCH, SEQ, HEADS, HDIM], BF, [HEADS * SEQ * HDIM, HDIM, SEQ * HDIM, 1])
        lse = Ten([BATCH, HEADS, SEQ], FP)
        seed = ([], LONG, [], "")
        fa_flops = 4.0 * BATCH * HEADS * SEQ * SEQ * HDIM * 0.5

        def sdpa_bwd():
            args = [bhsd, bhsd, bhsd, bhsd, bhsd, lse, NONE, NONE, Sc(SEQ), Sc(SEQ), Sc(0.0), Sc(True),
                    seed, seed, Sc(scale)]
            with sim.op("aten::_scaled_dot_product_flash_attention_backward", args, cost=(10.0, 20.0)):
                for _ in range(5):
                    transpose(bhsd, 1, 2)
                fargs = [bshd_t] * 5 + [lse, NONE, NONE, Sc(SEQ), Sc(SEQ), Sc(0.0), Sc(True), seed, seed,
                                        Sc(scale), NONE, NONE]
                with sim.op("aten::_flash_attention_backward", fargs, cost=(20.0, 35.0)):
                    for _ in range(3):
                        empty_like(bshd_t)
                    empty([BATCH * HEADS, SEQ], 6, ("0", "", ""))
                    g = (SEQ // 128, HEADS, BATCH)
                    sim.kernel(K_FA_BWD_PRE, t_mem(TOK * HID * 2 * 2), api="hipModuleLaunchKernel", grid=g,
                               block=(256, 1, 1), shm=0)
                    t_all = 2.5 * fa_flops / 218e12 * 1e6
                    sim.kernel(K_FA_BWD_DKDV, t_all * 0.62 * rng_kernel.uniform(0.98, 1.03), api="hipModuleLaunchKernel",
                               grid=(SEQ // 64, HEADS, BATCH), block=(256, 1, 1), shm=49152)
                    sim.kernel(K_FA_BWD_DQ, t_all * 0.38 * rng_kernel.uniform(0.98, 1.03), api="hipModuleLaunchKernel",
                               grid=(SEQ // 128, HEADS, BATCH), block=(256, 1, 1), shm=32768)
                for _ in range(3):
                    transpose(bshd_t, 1, 2)

        with sim.op("aten::scaled_dot_product_attention",
                    [q, k, v, NONE, Sc(0.0), Sc(True), Sc(scale), Sc(False)], seq=sim.seqn, cost=(6.0, 12.0)):
            s = sim.take_seq()
            with sim.op("aten::_scaled_dot_product_flash_attention", [q, k, v, Sc(0.0), Sc(True), Sc(False), Sc(scale)],
                        seq=s, cost=(10.0, 20.0),
                        node=("ScaledDotProductFlashAttentionBackward0", [bhsd, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE],
                              sdpa_bwd)):
                for x in (q, k, v):
                    transpose(x, 1, 2)
                fargs = [bshd_t] * 3 + [NONE, NONE, Sc(SEQ), Sc(SEQ), Sc(0.0), Sc(True), Sc(False), Sc(scale),
                                        NONE, NONE, NONE, NONE]
                with sim.op("aten::_flash_attention_forward", fargs, cost=(20.0, 35.0)):
                    with sim.op("aten::empty_like", [bshd_t, NONE, NONE, NONE, NONE, NONE], cost=(1.5, 4.0)):
                        empty_strided(bshd_t[0], bshd_t[2], 15)
                    empty([], 4)
                    empty([], 4)
                    for _ in range(4):
                        with sim.op("aten::permute", [bshd_t, SL([0, 2, 1, 3])], cost=(0.8, 2.5)):
                            as_strided(bshd_t, [BATCH, HEADS, SEQ, HDIM], contig([BATCH, HEADS, SEQ, HDIM]))
                    empty([BATCH * HEADS, SEQ], 6)
                    empty([0, 0, 0, 0], 15)
                    zeros([1], 3, K_FILL_I32, 4)
                    sim.kernel(K_FA_FWD, fa_flops / 330e12 * 1e6 * rng_kernel.uniform(0.97, 1.03),
                               api="hipModuleLaunchKernel", grid=(SEQ // 128 * HEADS * BATCH, 1, 1), block=(256, 1, 1),
                               shm=16384)
                    view(Ten([BATCH * HEADS, SEQ], FP), [BATCH, HEADS, SEQ])
                    empty([0], 15)
                transpose(bshd_t, 1, 2)
        attn = Ten([BATCH, HEADS, SEQ, HDIM])
        s = sim.take_seq()
        a_t = transpose(attn, 1, 2, seq=s, node=("TransposeBackward0", [bshd_t], lambda: transpose(bshd_t, 1, 2)))
        a_c = contiguous(a_t, contig([BATCH, SEQ, HEADS, HDIM]))
        s = sim.take_seq()
        a3 = reshape(a_c, [BATCH, SEQ, HID], seq=s, listed=[BATCH, SEQ, -1],
                     node=("ViewBackward0", [X3], lambda: reshape(X3, [BATCH, SEQ, HEADS, HDIM])))
        with sim.module("Linear", 125):
            o, W, _ = linear(a3, HID, False, {})
        params.append(W)
    return o, params


def mlp(xn, li):
    params = []
    with sim.module("MLP", 152):
        with sim.module("Linear", 125):
            g, Wg, _ = linear(xn, FFN, False, {"accum_in": lambda: accumulate(xn)})
        gf = Ten([BATCH, SEQ, FFN])
        n = numel(gf[0])
        with sim.module("SiLU", 140):
            s = sim.take_seq()
            ew("aten::silu", [g], n, n * 4, K_SILU, seq=s,
               node=("SiluBackward0", [gf], lambda: ew("aten::silu_backward", [gf, gf], n, n * 6, K_SILU_BWD)))
        with sim.module("Linear", 125):
            u, Wu, _ = linear(xn, FFN, False, {})
        s = sim.take_seq()

        def mul_bwd():
            ew("aten::mul", [gf, gf], n, n * 6, K_MUL)
            ew("aten::mul", [gf, gf], n, n * 6, K_MUL)

        ew("aten::mul", [gf, gf], n, n * 6, K_MUL, seq=s, node=("MulBackward0", [gf], mul_bwd))
        with sim.module("Linear", 125):
            d, Wd, _ = linear(gf, HID, False, {})
        params += [Wg, Wu, Wd]
    return d, params


def residual_add(a, b):
    n = numel(a[0])
    s = sim.take_seq()
    ew("aten::add", [a, b, Sc(1)], n, n * 6, K_ADD, seq=s, node=("AddBackward0", [X3], None))
    return Ten(a[0])


# ----------------------------------------------------------------------------- the step
PARAM_SHAPES = []


def forward_model(ids, pos):
    with sim.module("Transformer", 201):
        # embedding
        emb_w = Ten([VOCAB, HID])
        with sim.module("Embedding", 163):
            s = sim.take_seq()

            def emb_bwd():
                args = [X3, ids, Sc(VOCAB), Sc(-1), Sc(False)]
                with sim.op("aten::embedding_backward", args + [Sc(False)], cost=(3.0, 6.0)):
                    with sim.op("aten::embedding_dense_backward", args, cost=(25.0, 45.0)):
                        reshape(ids, [TOK], listed=[-1])
                        reshape(X3, [TOK, HID], listed=[TOK, HID])
                        with sim.op("aten::arange", [Sc(0), Sc(TOK), Sc(1), Sc(4), NONE, NONE, NONE], cost=(3.0, 6.0)):
                            sim.kernel(K_ARANGE, 2.9, grid=(TOK // 256, 1, 1))
                        with sim.op("aten::sort", [Ten([TOK], LONG), Sc(False), Sc(0), Sc(False)], cost=(10.0, 18.0)):
                            for _ in range(4):
                                sim.kernel(K_SORT_HIST if _ == 0 else K_SORT_ITER, 6.5 if _ == 0 else 9.8,
                                           grid=(32, 1, 1))
                        zeros([VOCAB, HID], 15, K_FILL_BF16, 2)
                        sim.kernel(K_EMB_SEG, 4.3, grid=(TOK // 256, 1, 1))
                        sim.kernel(K_EMB_GRAD, t_mem(TOK * HID * 2 * 2), grid=(TOK // 4, 1, 1))
                        sim.kernel(K_EMB_SCATTER, t_mem(TOK * HID * 2 * 2), grid=(TOK // 4, 1, 1))

            with sim.op("aten::embedding", [emb_w, ids, Sc(-1), Sc(False), Sc(False)], seq=s, cost=(6.0, 12.0),
                        node=("EmbeddingBackward0", [X3], emb_bwd, None, [emb_w])):
                reshape(ids, [TOK], listed=[-1])
                with sim.op("aten::index_select", [emb_w, Sc(0), Ten([TOK], LONG)], cost=(6.0, 12.0)):
                    sim.kernel(K_INDEX_SELECT, t_mem(TOK * HID * 4), grid=(TOK * HID // 2048, 1, 1), block=(512, 1, 1))
                view(X2, [BATCH, SEQ, HID], listed=[BATCH, SEQ, HID])
        h = Ten([BATCH, SEQ, HID])
        PARAM_SHAPES.append(emb_w[0])
        # rotary tables (no grad)
        with sim.module("RotaryEmbedding", 184):
            posf = Ten([1, SEQ], FP)
            to_copy_gpu(pos, 6, FP, K_LONG_TO_F32, 8, 4)
            inv = Ten([1, HDIM // 2, 1], FP)
            with sim.op("aten::mul", [Ten([1, SEQ, 1], FP, [SEQ, 1, 1]), Ten([1, 1, HDIM // 2], FP, [HDIM // 2, HDIM // 2, 1])],
                        cost=(5.0, 9.0)):
                sim.kernel(K_MUL_F32, 3.1, grid=(64, 1, 1))
            fr = Ten([1, SEQ, HDIM // 2], FP)
            with sim.op("aten::cat", [TL([fr, fr]), Sc(-1)], cost=(5.0, 10.0)):
                sim.kernel(K_CAT_F32, 3.4, grid=(64, 2, 1), block=(64, 1, 1))
            emb = Ten([1, SEQ, HDIM], FP)
            ew("aten::cos", [emb], SEQ * HDIM, SEQ * HDIM * 8, K_COS)
            ew("aten::sin", [emb], SEQ * HDIM, SEQ * HDIM * 8, K_SIN)
            cos = to_copy_gpu(emb, 15, BF, K_TO_BF16, 4, 2)
            sin = to_copy_gpu(emb, 15, BF, K_TO_BF16, 4, 2)
            _ = (inv, posf, cos, sin)
        cos3 = Ten([1, SEQ, HDIM])
        cosU = Ten([1, 1, SEQ, HDIM], BF, [SEQ * HDIM, SEQ * HDIM, HDIM, 1])
        sinU = cosU
        for li in range(LAYERS):
            with sim.module("DecoderLayer", 240):
                n1, w1 = rmsnorm(h, True)
                a, aparams = attention(n1, cos3, cosU, sinU, li)
                h = residual_add(h, a)
                n2, w2 = rmsnorm(h, True)
                m, mparams = mlp(n2, li)
                h = residual_add(h, m)
                LAYER_PARAMS.append((w1, aparams, w2, mparams))
        hn, wf = rmsnorm(h, False)
        with sim.module("Linear", 125):
            logits, Wlm, _ = linear(hn, VOCAB, False, {"streamk": True})
    return logits, wf, Wlm


LAYER_PARAMS = []


def loss_fn(logits, labels):
    n = TOK * VOCAB
    lf = Ten([BATCH, SEQ, VOCAB], FP)
    with sim.py("model.py(230): loss_fn"):
        s = sim.take_seq()

        def tocopy_bwd():
            to_copy_gpu(lf, 15, BF, K_TO_BF16, 4, 2)

        to_copy_gpu(logits, 6, FP, K_TO_F32, 2, 4, seq=s, node=("ToCopyBackward0", [lf], tocopy_bwd))
        s = sim.take_seq()
        l2 = Ten([TOK, VOCAB], FP)
        view(lf, [TOK, VOCAB], seq=s, listed=[-1, VOCAB],
             node=("ViewBackward0", [l2], lambda: reshape(l2, [BATCH, SEQ, VOCAB])))
        view(labels, [TOK], listed=[-1])
        tgt = Ten([TOK], LONG)
        with sim.py("torch/nn/functional.py(3494): cross_entropy"):
            with sim.op("aten::cross_entropy_loss", [l2, tgt, NONE, Sc(1), Sc(-100), Sc(0.0)], seq=sim.seqn, cost=(4.0, 8.0)):
                with sim.op("aten::log_softmax", [l2, Sc(1), NONE], seq=sim.seqn, cost=(3.0, 6.0)):
                    s = sim.take_seq()

                    def lsm_bwd():
                        with sim.op("aten::_log_softmax_backward_data", [l2, l2, Sc(1), Sc(6)], cost=(6.0, 12.0)):
                            sim.kernel(K_SOFTMAX_BWD, t_mem(n * 12), grid=(TOK, 1, 1), block=(1024, 1, 1))

                    with sim.op("aten::_log_softmax", [l2, Sc(1), Sc(False)], seq=s, cost=(6.0, 12.0),
                                node=("LogSoftmaxBackward0", [l2], lsm_bwd)):
                        sim.kernel(K_SOFTMAX_FWD, t_mem(n * 8), grid=(TOK, 1, 1), block=(1024, 1, 1))
                with sim.op("aten::nll_loss_nd", [l2, tgt, NONE, Sc(1), Sc(-100)], seq=sim.seqn, cost=(2.0, 5.0)):
                    with sim.op("aten::nll_loss", [l2, tgt, NONE, Sc(1), Sc(-100)], seq=sim.seqn, cost=(2.0, 5.0)):
                        s = sim.take_seq()
                        scalar = Ten([], FP)

                        def nll_bwd():
                            with sim.op("aten::nll_loss_backward", [scalar, l2, tgt, NONE, Sc(1), Sc(-100), scalar],
                                        cost=(8.0, 14.0)):
                                with sim.op("aten::zeros_like", [l2, NONE, NONE, NONE, NONE, NONE], cost=(2.0, 5.0)):
                                    with sim.op("aten::empty_like", [l2, NONE, NONE, NONE, NONE, NONE], cost=(1.5, 4.0)):
                                        empty_strided([TOK, VOCAB], [VOCAB, 1], 6)
                                    with sim.op("aten::zero_", [l2], cost=(1.0, 3.0)):
                                        fill_(l2, 0, K_FILL_F32, 4)
                                sim.kernel(K_NLL_BWD, 3.8, grid=(1, 1, 1), block=(1024, 1, 1))

                        with sim.op("aten::nll_loss_forward", [l2, tgt, NONE, Sc(1), Sc(-100)], seq=s, cost=(8.0, 14.0),
                                    node=("NllLossBackward0", [scalar], nll_bwd)):
                            sim.kernel(K_NLL_FWD, 14.7, grid=(1, 1, 1), block=(1024, 1, 1))


def run_backward(allreduce_after, bucket_numel):
    """Execute the recorded autograd nodes on the autograd thread, highest sequence number first."""
    for nd in reversed(sim.nodes):
        with sim.evaluate(nd.seq, nd.name):
            with sim.op(nd.name, nd.grads, seq=nd.seq, kind="bwdnode", cost=(1.5, 5.0), pre=(0.4, 1.2)) as e:
                sim.cpu.append({"ph": "f", "id": nd.fb, "pid": CPU_PID, "tid": AUTO, "ts": e["ts"],
                                "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"})
                if nd.body:
                    nd.body()
            if nd.accum:
                nd.accum()
        for p in nd.params:
            acc_grad(p)
            if allreduce_after is not None and p is allreduce_after:
                allreduce(bucket_numel)


def allreduce(nel):
    flat = Ten([nel])
    rpc_args = {"Collective name": "allreduce", "Process Group Description": "default_pg", "dtype": "BFloat16",
                "Rank": 0}
    tail = {"Out msg nelems": nel, "Process Group Name": "0"}
    with sim.op("c10d::allreduce_", [TL([flat]), NONE, NONE, NONE, Sc(-1)], cost=(15.0, 25.0)):
        inputs = [TL([flat]), NONE, NONE, Sc(0), NONE, SL([]), SL([]), Sc(0), Sc(1), Sc(WORLD)]
        with sim.op("record_param_comms", inputs, cost=(10.0, 20.0)) as e:
            a = e["args"]
            conc, typ, st, dims = a.pop("Concrete Inputs"), a.pop("Input type"), a.pop("Input Strides"), a.pop("Input Dims")
            a.update(rpc_args)
            a["Input Strides"] = st
            a["Concrete Inputs"] = conc
            a.update(tail)
            a["Input type"] = typ
            a.update({"Global rank stride": 1, "Out split size": "[]", "In split size": "[]",
                      "Process Group Ranks": "[0, 1, 2, 3, 4, 5, 6, 7]", "Group size": WORLD, "Input Dims": dims,
                      "Global rank start": 0, "In msg nelems": nel})
            with sim.annotation("nccl:all_reduce", {"Concrete Inputs": [""], "Input type": [BF], "Input Strides": [[1]],
                                                    "Input Dims": [[nel]]}):
                sim.stream_wait(COMM, STREAM)
                busbw = 292e9
                us = (nel * 2) * 2 * (WORLD - 1) / WORLD / busbw * 1e6
                sim.kernel(K_NCCL, us * rng_kernel.uniform(0.98, 1.02), api="hipExtLaunchKernel", grid=(1, 1, 1),
                           block=(256, 1, 1), stream=COMM)


def mta_launches(numels, depth):
    max_t = [110, 64, 48, 36, 30][depth - 1]
    out, cur_t, cur_b, cur_e = [], 0, 0, 0
    for n in numels:
        cur_t += 1
        chunks = math.ceil(n / 65536)
        for c in range(chunks):
            cur_b += 1
            cur_e += min(65536, n - c * 65536)
            last = c == chunks - 1
            if cur_b == 320 or (cur_t == max_t and last):
                out.append((cur_b, cur_e))
                cur_b, cur_e = 0, 0
                cur_t = 0 if last else 1
    if cur_b:
        out.append((cur_b, cur_e))
    return out


def foreach(name, lists, scalar, depth, bpe, functor, opname=None, cost=(45.0, 80.0)):
    numels = [numel(p[0]) for p in lists[0]]
    inputs = [TL(l) for l in lists] + ([scalar] if scalar is not None else [])
    kname = mta_kernel(depth, functor, opname)
    with sim.op(name, inputs, cost=cost):
        for blocks, elems in mta_launches(numels, depth):
            sim.kernel(kname, t_mem(elems * bpe), grid=(blocks, 1, 1), block=(512, 1, 1))


def optimizer(params):
    n = len(params)
    steps = [Ten([], FP) for _ in params]
    bc2 = math.sqrt(1 - BETA2 ** STEP)
    step_size = LR / (1 - BETA1 ** STEP)
    with sim.py("torch/optim/optimizer.py(485): wrapper"):
        with sim.annotation("Optimizer.step#AdamW.step"):
            with sim.py("torch/optim/optimizer.py(79): _use_grad", pre=(8.0, 15.0)):
                with sim.py("torch/optim/adamw.py(209): step", pre=(20.0, 40.0)):
                    with sim.py("torch/optim/adam.py(872): adam", pre=(30.0, 60.0)):
                        with sim.py("torch/optim/adam.py(577): _multi_tensor_adam", pre=(40.0, 70.0)):
                            with sim.op("aten::_foreach_add_", [TL(steps), Sc(1)], cost=(10.0, 20.0)):
                                for st in steps:
                                    with sim.op("aten::add_", [st, Sc(1), Sc(1)], cost=(1.5, 3.0), pre=(0.3, 0.8)):
                                        pass
                            foreach("aten::_foreach_mul_", [params], Sc(1.0 - LR * WD), 1, 4,
                                    "BinaryOpScalarFunctor<c10::BFloat16, 1, 1, 0>", "std::multiplies<float>")
                            foreach("aten::_foreach_lerp_", [params, params], Sc(1.0 - BETA1), 2, 6,
                                    "LerpFunctor<c10::BFloat16, 2, 2, 0>")
                            foreach("aten::_foreach_mul_", [params], Sc(BETA2), 1, 4,
                                    "BinaryOpScalarFunctor<c10::BFloat16, 1, 1, 0>", "std::multiplies<float>")
                            foreach("aten::_foreach_addcmul_", [params, params, params], Sc(1.0 - BETA2), 3, 8,
                                    "PointwiseOpScalarFunctor<c10::BFloat16, 3, 3, 0>", "std::multiplies<float>")
                            foreach("aten::_foreach_sqrt", [params], None, 2, 4,
                                    "UnaryOpFunctor<c10::BFloat16, 2, 1, 1>", "at::native::Sqrt<float>")
                            foreach("aten::_foreach_div_", [params], SL([bc2] * n), 1, 4,
                                    "BinaryOpScalarListFunctor<c10::BFloat16, 1, 1, 0>", "std::divides<float>")
                            foreach("aten::_foreach_add_", [params], Sc(ADAM_EPS), 1, 4,
                                    "BinaryOpScalarFunctor<c10::BFloat16, 1, 1, 0>", "std::plus<float>")
                            foreach("aten::_foreach_addcdiv_", [params, params, params], SL([-step_size] * n), 3, 8,
                                    "PointwiseOpScalarListFunctor<c10::BFloat16, 3, 3, 0>", "std::divides<float>")


def build():
    sim.tid = MAIN
    sim.clock[MAIN] = T0 + 38000
    with sim.py("train.py(231): <module>", pre=(0, 0)):
        with sim.py("train.py(214): main"):
            sim.clock[MAIN] += 6000
            with sim.annotation("ProfilerStep#3", pre=(10.0, 14.0)):
                with sim.py("train.py(173): train_step", pre=(4.0, 8.0)):
                    with sim.py("torch/optim/optimizer.py(973): zero_grad"):
                        with sim.annotation("Optimizer.zero_grad#AdamW.zero_grad"):
                            sim.adv(40.0, 60.0)
                    # the batch: three H2D copies
                    ids = Ten([BATCH, SEQ], LONG)
                    pos = Ten([1, SEQ], LONG)
                    for shape in ([BATCH, SEQ], [BATCH, SEQ], [1, SEQ]):
                        t = Ten(shape, LONG)
                        with sim.op("aten::to", [t, Sc(4), Sc(0), NONE, NONE, Sc(True), Sc(False), NONE], cost=(3.0, 6.0)):
                            with sim.op("aten::_to_copy", [t, Sc(4), Sc(0), NONE, NONE, Sc(True), NONE], cost=(4.0, 8.0)):
                                empty_strided(shape, contig(shape), 4)
                                with sim.op("aten::copy_", [t, t, Sc(True)], cost=(6.0, 12.0)):
                                    sim.memcpy("HtoD", numel(shape) * 8)
                    # forward
                    logits, wf, Wlm = forward_model(ids, pos)
                    loss_fn(logits, ids)
                    # backward
                    params = [Ten(PARAM_SHAPES[0])]
                    for w1, ap, w2, mp in LAYER_PARAMS:
                        params += [w1] + ap + [w2] + mp
                    params += [wf, Wlm]
                    # the bucket all-reduced once layer 0's MLP gradients are in: everything but
                    # layer 0's attention, its norms and the embedding
                    l0 = LAYER_PARAMS[0]
                    excluded = [params[0], l0[0], l0[2]] + l0[1]
                    bucket = sum(numel(p[0]) for p in params if all(p is not q for q in excluded))
                    trigger = l0[3][0]  # the gate weight is the last MLP weight whose grad is accumulated
                    with sim.py("torch/_tensor.py(648): backward"):
                        with sim.py("torch/autograd/__init__.py(354): backward"):
                            with sim.py("torch/autograd/__init__.py(221): _make_grads"):
                                with sim.op("aten::ones_like", [Ten([], FP), NONE, NONE, NONE, NONE, Sc(1)], cost=(3.0, 6.0)):
                                    with sim.op("aten::empty_like", [Ten([], FP), NONE, NONE, NONE, NONE, Sc(1)], cost=(1.5, 4.0)):
                                        empty_strided([], [], 6)
                                    fill_(Ten([], FP), 1.0, K_FILL_F32, 4)
                            with sim.py("torch/autograd/graph.py(829): _engine_run_backward") as eng:
                                sim.tid = AUTO
                                sim.clock[AUTO] = sim.clock[MAIN] + 9000
                                run_backward(trigger, bucket)
                                # DDP-style finalize: the compute stream waits for the all-reduce
                                sim.stream_wait(STREAM, COMM)
                                end_auto = sim.clock[AUTO]
                                sim.tid = MAIN
                                sim.clock[MAIN] = end_auto + 12000
                                _ = eng
                    # loss.item(): a device-to-host copy and a stream sync
                    with sim.op("aten::item", [Ten([], FP)], cost=(3.0, 6.0)):
                        with sim.op("aten::_local_scalar_dense", [Ten([], FP)], cost=(4.0, 8.0)):
                            sim.memcpy("DtoH", 4)
                            sim.sync("hipStreamSynchronize", [STREAM])
                    sim.adv(60.0, 90.0)
                    optimizer(params)
                with sim.py("torch/cuda/__init__.py(1040): synchronize"):
                    sim.sync("hipDeviceSynchronize", [STREAM, COMM])
            with sim.py("torch/profiler/profiler.py(832): step"):
                sim.adv(80.0, 120.0)
    return params


# ----------------------------------------------------------------------------- output
def jv(v):
    return json.dumps(v, ensure_ascii=False)


def write_event(out, e):
    ph = e["ph"]
    if ph in ("s", "f"):
        extra = ', "bp": "e"' if ph == "f" else ""
        out.append('  {\n    "ph": "%s", "id": %d, "pid": %s, "tid": %s, "ts": %s,\n    "cat": "%s", "name": "%s"%s\n  }'
                   % (ph, e["id"], jv(e["pid"]), jv(e["tid"]), fmt_ts(e["ts"]), e["cat"], e["name"], extra))
        return
    if ph == "M":
        out.append('  {\n    "name": %s, "ph": "M", "ts": %s, "pid": %s, "tid": %s,\n    "args": {\n      %s\n    }\n  }'
                   % (jv(e["name"]), fmt_ts(e["ts"]), jv(e["pid"]), jv(e["tid"]),
                      ", ".join("%s: %s" % (jv(k), jv(v)) for k, v in e["args"].items())))
        return
    cat = e["cat"]
    items = ["%s: %s" % (jv(k), jv(v)) for k, v in e["args"].items()]
    if cat in ("cpu_op", "user_annotation") and items:
        args = items[0] + "," + ", ".join(items[1:])
    elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
        args = "      " + ", ".join(items)
    else:
        args = ", ".join(items)
    out.append('  {\n    "ph": "X", "cat": "%s", "name": %s, "pid": %s, "tid": %s,\n    "ts": %s, "dur": %s,\n'
               '    "args": {\n      %s\n    }\n  }'
               % (cat, jv(e["name"]), jv(e["pid"]), jv(e["tid"]), fmt_ts(e["ts"]), fmt_ts(e["dur"]), args))


def union(iv):
    iv = sorted(iv)
    out = []
    for s, e in iv:
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(u):
    return sum(e - s for s, e in u)


def subtract(a, b):
    """b minus a (both merged)."""
    out = []
    for s, e in b:
        cur = s
        for x, y in a:
            if y <= cur or x >= e:
                continue
            if x > cur:
                out.append([cur, x])
            cur = max(cur, y)
            if cur >= e:
                break
        if cur < e:
            out.append([cur, e])
    return out


def main():
    outpath = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "share", "tl", "samples", "mi300x-transformer-step.json.gz"))
    build()
    trace_end = sim.clock[MAIN] + 25000

    events = []
    # 1. host events per thread (autograd thread first, as ROCm Kineto writes them), ts order
    for tid in (AUTO, MAIN):
        hs = [e for e in sim.cpu if e["tid"] == tid and e.get("cat") != "python_function"]
        hs.sort(key=lambda e: (e["ts"], 0 if e["ph"] == "X" else 1))
        events += hs
    # 2. python functions
    events += sorted((e for e in sim.cpu if e.get("cat") == "python_function"), key=lambda e: (e["tid"] != MAIN, e["ts"]))
    # 3. runtime (+flow) and GPU events (+flow), interleaved by ts
    merged = [(r["ts"], 0, i, (r, f)) for i, (r, f) in enumerate(sim.rt)]
    merged += [(g["ts"], 1, i, (g, f)) for i, (g, f) in enumerate(sim.gpu)]
    merged.sort(key=lambda x: (x[0], x[1], x[2]))
    for _, _, _, (a, b) in merged:
        events += [a, b]
    gpu_events = [g for g, _ in sim.gpu]
    gfirst = min(g["ts"] for g in gpu_events)
    glast = max(g["ts"] + g["dur"] for g in gpu_events)
    step = next(e for e in sim.cpu if e.get("name") == "ProfilerStep#3")
    events.append({"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#3", "pid": GPU_DEV, "tid": STREAM,
                   "ts": gfirst, "dur": glast - gfirst, "args": {"External id": step["args"]["External id"]}})
    # Ev Idx on host X events (flows are not counted)
    idx = 0
    for e in events:
        if e["ph"] == "X" and e["cat"] in ("cpu_op", "user_annotation", "python_function"):
            e["args"]["Ev Idx"] = idx
            idx += 1
    # 4. metadata
    meta = []

    def M(name, pid, tid, args):
        meta.append({"name": name, "ph": "M", "ts": T0, "pid": pid, "tid": tid, "args": args})

    M("process_name", CPU_PID, 0, {"name": "python3"})
    M("process_labels", CPU_PID, 0, {"labels": "CPU"})
    M("process_sort_index", CPU_PID, 0, {"sort_index": CPU_PID})
    for d in range(WORLD):
        M("process_name", d, 0, {"name": "python3"})
        M("process_labels", d, 0, {"labels": "GPU %d" % d})
        M("process_sort_index", d, 0, {"sort_index": 5000000 + d})
    for s in (STREAM, COMM):
        M("thread_name", GPU_DEV, s, {"name": "stream %d " % s})
        M("thread_sort_index", GPU_DEV, s, {"sort_index": s})
    M("thread_name", CPU_PID, MAIN, {"name": "thread %d (python3)" % MAIN})
    M("thread_sort_index", CPU_PID, MAIN, {"sort_index": MAIN})
    M("thread_name", CPU_PID, AUTO, {"name": "thread %d (python3)" % AUTO})
    M("thread_sort_index", CPU_PID, AUTO, {"sort_index": AUTO})
    M("thread_name", CPU_PID, AUTO, {"name": "thread %d (pt_autograd_0)" % AUTO})
    M("thread_sort_index", CPU_PID, AUTO, {"sort_index": AUTO})
    events += meta

    out = []
    for e in events:
        write_event(out, e)
    out.append('  {\n    "ph": "X", "cat": "Trace", "ts": %s, "dur": %s,\n    "pid": "Spans", "tid": "PyTorch Profiler",\n'
               '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
               % (fmt_ts(T0), fmt_ts(trace_end - T0)))
    out.append('  {\n    "name": "process_sort_index", "ph": "M", "ts": %s,\n    "pid": "Spans", "tid": 0,\n'
               '    "args": {\n      "sort_index": 536870912\n    }\n  }' % fmt_ts(T0))
    out.append('  {\n    "name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",\n'
               '    "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": %s\n  }' % fmt_ts(T0))
    out.append('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n    "pid": "", "tid": "", "ts": %s\n  }'
               % fmt_ts(trace_end + 3141))

    dev = []
    for d in range(WORLD):
        dev.append('    {\n      "id": %d, "name": "AMD Instinct MI300X", "totalGlobalMem": 206141652992,\n'
                   '      "computeMajor": 9, "computeMinor": 4,\n'
                   '      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n'
                   '      "regsPerBlock": 65536, "warpSize": 64,\n'
                   '      "sharedMemPerBlock": 65536, "numSms": 304\n'
                   '    , "maxSharedMemoryPerMultiProcessor": 65536\n    }' % d)
    dist = {"backend": "nccl", "rank": 0, "world_size": WORLD, "pg_count": 1,
            "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": WORLD,
                           "ranks": list(range(WORLD))}], "nccl_version": "2.22.3"}
    text = ("\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n" + ",\n".join(dev) + "\n  ],\n"
            "  \"roctracer_version\": 4.1,\n  \"hip_runtime_version\": 60443483,\n"
            "  \"distributedInfo\": " + json.dumps(dist) + ",\n"
            "  \"record_shapes\": 1,\n  \"hip_driver_version\": 60443483,\n  \"with_stack\": 1,\n  \"with_modules\": 1,\n"
            "  \"trace_id\": \"7A1C0DE5F00D4B1EA11CE0FB0B5E55ED\",\n"
            "  \"traceEvents\": [\n" + ",\n".join(out) + "\n  ],\n"
            "  \"traceName\": \"./traces/rank0_step3.json\",\n  \"displayTimeUnit\": \"ms\",\n"
            "  \"baseTimeNanoseconds\": %d\n}" % BASE_TIME_NS)

    doc = json.loads(text)  # self-check: valid JSON
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    os.makedirs(os.path.dirname(os.path.abspath(outpath)), exist_ok=True)
    with open(outpath, "wb") as f:
        f.write(buf.getvalue())

    # ---- summary (the GPU timeline as TraceLens' gpu_event_analyser.py
    # computes it; every GPU event here is linked)
    ev = doc["traceEvents"]
    cats = {}
    for e in ev:
        k = e.get("cat", "(ph %s)" % e["ph"])
        cats[k] = cats.get(k, 0) + 1
    comp, comm, mem, alle = [], [], [], []
    for e in ev:
        if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        iv = (e["ts"], e["ts"] + e["dur"])
        alle.append(iv)
        if e["cat"] == "gpu_memcpy":
            mem.append(iv)
        elif e["cat"] == "kernel" and ("nccl" in e["name"].lower() or "rccl" in e["name"].lower()):
            comm.append(iv)
        else:
            comp.append(iv)
    U, C, CM, MM = union(alle), union(comp), union(comm), union(mem)
    total = U[-1][1] - U[0][0]
    busy = length(U)
    ecomm = length(subtract(C, CM))
    emem = length(subtract(CM, subtract(C, MM)))
    s = sys.stderr
    s.write("wrote %s (%d bytes gz, %d bytes json, %d events)\n" % (outpath, len(buf.getvalue()), len(text), len(ev)))
    for k in sorted(cats):
        s.write("  %-22s %d\n" % (k, cats[k]))
    s.write("GPU: total %.3f us, busy %.3f us (%.2f%%), compute %.3f, exposed comm %.3f, exposed memcpy %.3f, "
            "idle %.3f us (%.2f%%), comm total %.3f\n" % (total, busy, 100 * busy / total, length(C), ecomm, emem,
                                                          total - busy, 100 * (total - busy) / total, length(CM)))


if __name__ == "__main__":
    main()
