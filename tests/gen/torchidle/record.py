"""Record tests/gen/torchidle/KIND.host.json.gz (gen-torchidle.py --record;
needs torch, CPU build): see gen-torchidle.py."""
import sys, time, json, gzip
import torch, torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.profiler import profile, ProfilerActivity, record_function

class Images(Dataset):
    """A dataset whose __getitem__ does CPU work in Python (decode-ish):
    work loop turns per sample."""
    def __init__(self, work):
        self.work = work
        self.data = torch.rand(64, 3, 16, 16,
                               generator=torch.Generator().manual_seed(0))
    def __len__(self): return 4096
    def __getitem__(self, i):
        if self.work == 0:      # ready tensors: a cheap loader
            return self.data[i % 64], i % 10
        g = torch.Generator().manual_seed(i)
        x = torch.rand(3, 48, 48, generator=g)
        x = augment(x, self.work)
        return x, i % 10

def augment(x, work):
    s = 0.0
    for v in range(work):       # pure-Python work, no ops
        s += v * 0.5
    return (x - 0.5) / 0.25

def resize_batch(x):
    # preprocessing on the main thread: each image resized (up for a
    # crop, then down) and normalised, one at a time
    out = []
    for img in x:
        img = torch.nn.functional.interpolate(img[None], size=(96, 96),
                                              mode="bicubic",
                                              align_corners=False)
        img = torch.nn.functional.interpolate(img, size=(8, 8),
                                              mode="area")
        out.append((img - img.mean()) / (img.std() + 1e-6))
    return torch.cat(out)

def log_metrics(step, loss):
    s = 0
    for k in range(20000):
        s += k % 7
    print("step %d loss %.4f %d" % (step, loss, s), file=sys.stderr)

def model(layers, width):
    mods = [nn.Flatten(), nn.Linear(3 * 8 * 8, width), nn.ReLU()]
    for _ in range(layers):
        mods += [nn.Linear(width, width), nn.ReLU()]
    mods += [nn.Linear(width, 10)]
    return nn.Sequential(*mods)

def train_step(m, opt, x, y, kind, step):
    opt.zero_grad(set_to_none=False)
    loss = nn.functional.cross_entropy(m(x), y)
    loss.backward()
    opt.step()
    if kind == "sync":
        v = loss.item()
        log_metrics(step, v)

def run(kind, out):
    torch.manual_seed(0)
    workers = 2 if kind == "dl2" else 0
    dl = DataLoader(Images(1500 if kind in ("dl0", "dl2") else 0), batch_size=16, num_workers=workers,
                    persistent_workers=workers > 0)
    layers = 24 if kind == "zerograd" else 2
    m = model(layers, 256 if kind == "zerograd" else 32)
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9,
                          foreach=False)
    frames = []
    stack = []
    def prof(frame, event, arg):
        if event == "call":
            stack.append(time.perf_counter_ns())
        elif event == "return" and stack:
            d = len(stack)
            t0 = stack.pop()
            t1 = time.perf_counter_ns()
            if t1 - t0 >= 5000:
                co = frame.f_code
                fn = co.co_filename
                i = fn.find("/torch/")
                fn = fn[i + 1:] if i >= 0 else fn.rsplit("/", 1)[-1]
                frames.append(["%s(%d): %s" % (fn, co.co_firstlineno,
                               co.co_name), t0, t1, d])
    it = iter(dl)
    for _ in range(2):           # warm the loader up outside the profile
        next(it)
    with profile(activities=[ProfilerActivity.CPU], with_stack=True,
                 record_shapes=True) as p:
        with record_function("__tl_warm__"):
            pass
        with record_function("__tl_clock__"):
            c0 = time.perf_counter_ns()
        sys.setprofile(prof)
        for step in range(5):
            with record_function("ProfilerStep#%d" % (step + 1)):
                x, y = next(it)
                if kind == "preproc":
                    x = resize_batch(x)
                else:
                    x = x[:, :, 4:12, 4:12]
                train_step(m, opt, x, y, kind, step)
        sys.setprofile(None)
    evs = []
    clock = None
    for e in p.events():
        if e.name == "__tl_clock__":
            clock = e.time_range.start
        evs.append([e.name, e.time_range.start, e.time_range.end, e.thread,
                    [list(s) if isinstance(s, (list, tuple)) else s
                     for s in (e.input_shapes or [])]])
    off = clock * 1000 - c0     # profiler us*1000 - perf ns
    fr = [[n, (a + off) / 1000.0, (b + off) / 1000.0, d]
          for n, a, b, d in frames]
    doc = {"kind": kind, "torch": torch.__version__, "ops": evs,
           "frames": fr}
    with gzip.open(out, "wt", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))

if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2])
