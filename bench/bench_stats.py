"""Small measures the language-server benchmarks share: a percentile of a list of timings and a
process's peak resident memory."""


def pct(xs, q):
    """The q-quantile (0..1) of xs, nearest rank."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def vm_hwm(pid):
    """Peak resident set size of process pid in MiB (VmHWM), 0.0 when unknown."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return 0.0
