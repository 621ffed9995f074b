#!/usr/bin/python3
"""Times sgx's run_octal against two peer programs on the same octal games, one core each, and prints a table.

Usage:
  bench/compare_peers.py [--sgx RUN_OCTAL] [--tczajka DIR] [--ogsolve DIR] [--scratch DIR]
                         [--quick] [--repeat K] [--rows SUBSTRING ...] [--timeout SECONDS]

The peers:
  tczajka  tczajka/octal-games, its C++ analyzer old/src/analyze_exec.cc, built with g++ -O2 as its
           Makefile does. It prints a line "n=2^k largest G[i]=v ..." each time it has G(0..2^k-1) and stops
           when it proves a period ("Found period start=S period=P"). It is timed until it prints n=2^k for
           the row's n, and then killed.
  ogsolve  Beling's ogsolve (beling/impartial-games, crates ogs/ and ogsolve/), run as
           `ogsolve GAME -m rc2 -n N-1`: it computes G(0..N-1) and prints G(N-1) and a Fletcher checksum of
           the values. It has no Grundy's game and does not stop at a period.

Where the sources come from, for each peer in this order: the option (--tczajka DIR is a checkout of
octal-games, --ogsolve DIR one of impartial-games); $SGX_PEERS_DIR/octal-games and
$SGX_PEERS_DIR/impartial-games; a `git clone` from GitHub into the scratch folder. A peer whose sources
cannot be found, or that cannot be built here, is skipped with a one-line message saying what it needs.
ogsolve needs clap: without network, cargo is pointed at Debian's packaged crates in
/usr/share/cargo/registry (packages cargo and librust-clap-dev). Nothing is installed by this script.

Every run is pinned to one core (`taskset -c CPU`, when taskset exists) and sgx runs with --threads 1.
Each row is run --repeat times (3; 1 with --quick), the programs alternating, and the median wall time
is shown. Values are checked where a peer prints them: the analyzer's largest value and where it first
occurs against sgx's max_value and max_at; ogsolve's G(N-1) and checksum against sgx's values (printed
by a separate, untimed run_octal --print). A mismatch prints DIFFER and marks the row.

The output is a Markdown table: the work, sgx's seconds, each peer's seconds, and sgx's lead over the
fastest peer (the peer's time over sgx's), with the date and the load average before and after.
The exit status is 0 unless sgx itself cannot run.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TCZAJKA_URL = "https://github.com/tczajka/octal-games"
OGSOLVE_URL = "https://github.com/beling/impartial-games"
DEBIAN_CRATES = "/usr/share/cargo/registry"

# (label, sgx game, n or None for "until proven", analyzer's name or None, ogsolve's name or None)
FULL_ROWS = [
    ("Grundy's game to 2^22", "4!.0", 1 << 22, "grundy", None),
    ("0.6 to 2^21", "0.6", 1 << 21, "0.6", "0.6"),
    ("0.6 to 2^22", "0.6", 1 << 22, "0.6", "0.6"),
    ("0.167 to 2^22", "0.167", 1 << 22, "0.167", "0.167"),
    ("0.167 to 2^24", "0.167", 1 << 24, "0.167", "0.167"),
    ("0.007 to 2^18", "0.007", 1 << 18, "0.007", "0.007"),
    ("0.014 to 2^22", "0.014", 1 << 22, "0.014", "0.014"),
    ("0.034 to 2^22", "0.034", 1 << 22, "0.034", "0.034"),
    ("0.161 to 2^22", "0.161", 1 << 22, "0.161", "0.161"),
    ("0.172 to 2^22", "0.172", 1 << 22, "0.172", "0.172"),
    ("0.16 until proven", "0.16", None, "0.16", "0.16"),
]
QUICK_ROWS = [
    ("Grundy's game to 2^16", "4!.0", 1 << 16, "grundy", None),
    ("0.6 to 2^16", "0.6", 1 << 16, "0.6", "0.6"),
    ("0.167 to 2^16", "0.167", 1 << 16, "0.167", "0.167"),
    ("0.007 to 2^12", "0.007", 1 << 12, "0.007", "0.007"),
]


def say(msg):
    print(msg, file=sys.stderr, flush=True)


def log2_exact(n):
    return n.bit_length() - 1 if n and n & (n - 1) == 0 else None


def fletcher(values):
    """The checksum ogsolve prints: two 16-bit running sums over the values, the second in the high half."""
    a = b = 0
    for v in values:
        a = (a + v) & 0xFFFF
        b = (b + a) & 0xFFFF
    return (b << 16) | a


def parse_analyzer_line(line):
    """'n=2^k largest G[i]=v ...' -> (k, i, v); 'Found period start=S period=P' -> ('period', S, P)."""
    words = line.split()
    if not words:
        return None
    if words[0].startswith("n=2^") and len(words) > 1 and words[1] == "largest":
        k = int(words[0][4:])
        at, value = words[2][2:].split("]=")
        return (k, int(at), int(value))
    if line.startswith("Found period"):
        fields = dict(w.split("=") for w in words[2:] if "=" in w)
        return ("period", int(fields["start"]), int(fields["period"]))
    return None


def parse_ogsolve(text):
    """ogsolve's report -> {'last_n', 'last', 'checksum', 'period', 'preperiod'} (keys present when printed)."""
    out = {}
    for line in text.splitlines():
        words = line.split()
        if line.strip().startswith("nimber of"):
            out["last_n"] = int(words[2].rstrip(":"))
            out["last"] = int(words[3])
            if "checksum:" in words:
                out["checksum"] = int(words[words.index("checksum:") + 1], 16)
        elif line.strip().startswith("found period of length"):
            out["period"] = int(words[4])
            out["preperiod"] = int(words[-1])
    return out


class Runner:
    def __init__(self, args):
        self.args = args
        self.pin = ["taskset", "-c", str(args.cpu)] if shutil.which("taskset") else []
        self.notes = []
        # sgx always writes its values to an HDF5 file: one in the scratch folder, replaced by each run.
        self.out = ["--out", os.path.join(args.scratch, "sgx-run.h5"), "--overwrite"]

    def note(self, msg):
        say(msg)
        self.notes.append(msg)

    # --- sgx ---------------------------------------------------------------------------------------------
    def sgx(self, game, n):
        cmd = self.pin + [self.args.sgx, game, "--threads", "1", "--json", "--quiet"] + self.out
        cmd += ["--n", str(n)] if n else []
        start = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=self.args.timeout)
        wall = time.monotonic() - start
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}")
        return wall, json.loads(p.stdout)

    def sgx_values(self, game, n):
        """G(0..n-1) from an untimed run_octal --print."""
        cmd = [self.args.sgx, game, "--n", str(n), "--threads", "1", "--print", "--quiet"] + self.out
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=self.args.timeout)
        try:
            values = [int(line) for line in p.stdout.splitlines()]
        except ValueError:
            return None
        return values if len(values) == n else None

    # --- tczajka's analyzer --------------------------------------------------------------------------------
    def analyzer(self, exe, game, n):
        """Seconds until the analyzer has G(0..n-1) (n=None: until it proves a period), and what it said."""
        k = log2_exact(n) if n else None
        cmd = self.pin + [exe, game]
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        seen = {}
        stopper = threading.Timer(self.args.timeout, p.kill)  # also when it prints nothing for long
        stopper.start()
        try:
            for line in p.stdout:
                parsed = parse_analyzer_line(line)
                if parsed is None:
                    continue
                if parsed[0] == "period":
                    seen["period"] = parsed[1:]
                    if n is None:
                        break
                    continue
                seen["k"], seen["max_at"], seen["max_value"] = parsed
                if k is not None and parsed[0] == k:
                    break
                if time.monotonic() - start > self.args.timeout:
                    break
            wall = time.monotonic() - start
        finally:
            stopper.cancel()
            if p.poll() is None:
                p.kill()
            p.wait()
        done = (n is None and "period" in seen) or (k is not None and seen.get("k") == k)
        return (wall if done else None), seen

    # --- ogsolve ---------------------------------------------------------------------------------------------
    def ogsolve(self, exe, game, n):
        cmd = self.pin + [exe, game, "-m", "rc2", "-n", str(n - 1)]
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return None, {}
        wall = time.monotonic() - start
        return (wall if p.returncode == 0 else None), parse_ogsolve(p.stdout)


# --- getting and building the peers ------------------------------------------------------------------------
def find_source(option, subdir, url, scratch, name):
    if option:
        return option if os.path.isdir(option) else None
    peers = os.environ.get("SGX_PEERS_DIR")
    if peers and os.path.isdir(os.path.join(peers, subdir)):
        return os.path.join(peers, subdir)
    target = os.path.join(scratch, "src", subdir)
    if os.path.isdir(target):
        return target
    say(f"{name}: no sources given; trying git clone {url}")
    p = subprocess.run(["git", "clone", "-q", "--depth", "1", url, target], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300)
    return target if p.returncode == 0 else None


def build_analyzer(src, scratch):
    old = os.path.join(src, "old", "src")
    if not os.path.isfile(os.path.join(old, "analyze_exec.cc")):
        return None, f"no old/src/analyze_exec.cc under {src}"
    if not shutil.which("g++"):
        return None, "g++ is missing (Debian package g++)"
    exe = os.path.join(scratch, "analyze")
    units = [os.path.join(old, f) for f in sorted(os.listdir(old))
             if f.endswith(".cc") and not f.endswith("_test.cc") and not f.endswith("_exec.cc")]
    cmd = ["g++", "-O2", "-std=c++11", "-pthread", "-I" + old, os.path.join(old, "analyze_exec.cc")] + units
    cmd += ["-o", exe, "-lpthread"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return None, "g++ failed: " + p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "g++ failed"
    return exe, None


def build_ogsolve(src, scratch):
    if not all(os.path.isfile(os.path.join(src, c, "Cargo.toml")) for c in ("ogs", "ogsolve")):
        return None, f"no ogs/ and ogsolve/ crates under {src}"
    if not shutil.which("cargo"):
        return None, "cargo is missing (Debian packages cargo librust-clap-dev)"
    # A workspace of just the two crates, so that the other members' dependencies are not needed.
    work = os.path.join(scratch, "ogsolve-src")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for crate in ("ogs", "ogsolve"):
        shutil.copytree(os.path.join(src, crate), os.path.join(work, crate))
    with open(os.path.join(work, "Cargo.toml"), "w") as f:
        f.write('[workspace]\nmembers = ["ogs", "ogsolve"]\nresolver = "2"\n')
    base = ["cargo", "build", "--release", "-p", "ogsolve", "--target-dir", os.path.join(scratch, "ogsolve-target")]
    attempts = []
    if os.path.isdir(DEBIAN_CRATES):
        attempts.append(base + ["--offline", "--config", 'source.crates-io.replace-with="debian"',
                                "--config", f'source.debian.directory="{DEBIAN_CRATES}"'])
    attempts.append(base)
    for cmd in attempts:
        p = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=1800)
        exe = os.path.join(scratch, "ogsolve-target", "release", "ogsolve")
        if p.returncode == 0 and os.path.isfile(exe):
            return exe, None
    return None, "cargo could not build it offline nor fetch clap (Debian packages cargo librust-clap-dev)"


# --- the table -----------------------------------------------------------------------------------------------
def fmt(seconds):
    if seconds is None:
        return "-"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def load_average():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sgx", default=None, help="run_octal to time (default: build/bin/run_octal of this tree)")
    ap.add_argument("--tczajka", help="a checkout of tczajka/octal-games")
    ap.add_argument("--ogsolve", help="a checkout of beling/impartial-games")
    ap.add_argument("--scratch", help="where peers are cloned and built (default: a temporary folder)")
    ap.add_argument("--quick", action="store_true", help="a few small rows, once each")
    ap.add_argument("--repeat", type=int, help="runs a row (median shown); 3, or 1 with --quick")
    ap.add_argument("--rows", nargs="*", help="only rows whose label contains one of these")
    ap.add_argument("--timeout", type=float, default=900, help="seconds a run may take")
    ap.add_argument("--cpu", type=int, default=0, help="the core taskset pins runs to")
    ap.add_argument("--no-check", action="store_true", help="skip the untimed run_octal --print for checks")
    args = ap.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args.sgx = os.path.abspath(args.sgx or os.path.join(here, "build", "bin", "run_octal"))
    if not os.access(args.sgx, os.X_OK):
        say(f"sgx: {args.sgx} not found; build it (cmake --build build --target run_octal) or give --sgx")
        return 1
    repeat = args.repeat or (1 if args.quick else 3)
    rows = QUICK_ROWS if args.quick else FULL_ROWS
    if args.rows:
        rows = [r for r in rows if any(s in r[0] for s in args.rows)]

    scratch = args.scratch = os.path.abspath(args.scratch or tempfile.mkdtemp(prefix="sgx-peers-"))
    os.makedirs(scratch, exist_ok=True)
    runner = Runner(args)
    peers = {}
    for name, option, subdir, url, build in (("tczajka", args.tczajka, "octal-games", TCZAJKA_URL, build_analyzer),
                                             ("ogsolve", args.ogsolve, "impartial-games", OGSOLVE_URL,
                                              build_ogsolve)):
        src = find_source(option, subdir, url, scratch, name)
        if src is None:
            runner.note(f"{name}: skipped, no sources: give --{name} DIR (a checkout of {url}) or "
                        f"SGX_PEERS_DIR holding {subdir}/")
            continue
        say(f"{name}: building from {src}")
        exe, why = build(src, scratch)
        if exe is None:
            runner.note(f"{name}: skipped, {why}")
            continue
        peers[name] = exe

    load_before = load_average()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    table = []
    differ = False
    for label, game, n, tczajka_game, ogsolve_game in rows:
        times = {"sgx": [], "tczajka": [], "ogsolve": []}
        said = {}
        report = None
        for _ in range(repeat):
            wall, report = runner.sgx(game, n)
            times["sgx"].append(wall)
            target = n or report["n"]
            if "tczajka" in peers and tczajka_game:
                wall, said["tczajka"] = runner.analyzer(peers["tczajka"], tczajka_game, n)
                times["tczajka"].append(wall)
            if "ogsolve" in peers and ogsolve_game:
                wall, said["ogsolve"] = runner.ogsolve(peers["ogsolve"], ogsolve_game, target)
                times["ogsolve"].append(wall)
        target = n or report["n"]
        checks = []
        if "tczajka" in said and said["tczajka"].get("max_value") is not None and n is not None:
            t = said["tczajka"]
            if (t["max_value"], t["max_at"]) != (report["max_value"], report["max_at"]):
                checks.append(f"DIFFER: the analyzer's largest G[{t['max_at']}]={t['max_value']}, "
                              f"sgx's G[{report['max_at']}]={report['max_value']}")
            else:
                checks.append("largest value agrees with the analyzer")
        if n is None and "tczajka" in said and "period" in said["tczajka"]:
            start, period = said["tczajka"]["period"]
            sp = report.get("period", {})
            if sp.get("period") != period:
                checks.append(f"DIFFER: the analyzer's period {period}, sgx's {sp.get('period')}")
            else:
                checks.append(f"the analyzer proves period {period} at n=2^{said['tczajka'].get('k')}")
        if "ogsolve" in said and "last" in said["ogsolve"] and not args.no_check:
            values = runner.sgx_values(game, target)
            o = said["ogsolve"]
            if values is None:
                checks.append("sgx's --print gave no values to check ogsolve's against")
            elif o["last"] != values[-1] or ("checksum" in o and o["checksum"] != fletcher(values)):
                checks.append(f"DIFFER: ogsolve's G({target - 1})={o['last']} checksum {o.get('checksum', 0):X}, "
                              f"sgx's {values[-1]} checksum {fletcher(values):X}")
            else:
                checks.append("G(n-1) and checksum agree with ogsolve")
        for c in checks:
            if c.startswith("DIFFER"):
                differ = True
                say(f"!!! {label}: {c}")
        med = {k: (statistics.median(v) if v and all(x is not None for x in v) else None) for k, v in times.items()}
        best = min((med[p] for p in ("tczajka", "ogsolve") if med[p] is not None), default=None)
        lead = f"{best / med['sgx']:.1f}x" if best and med["sgx"] else "-"
        work = label if n else f"{label} (n={target})"
        mark = " DIFFER" if any(c.startswith("DIFFER") for c in checks) else ""
        table.append((work + mark, med["sgx"], med["tczajka"], med["ogsolve"], lead, "; ".join(checks)))
        say(f"{work}: sgx {fmt(med['sgx'])}, tczajka {fmt(med['tczajka'])}, ogsolve {fmt(med['ogsolve'])}; "
            + "; ".join(checks))

    print(f"{started}, load average {load_before} before, {load_average()} after; "
          f"median of {repeat}, wall seconds, one core each")
    print()
    print("| work | sgx s | tczajka s | ogsolve s | sgx's lead | checks |")
    print("| --- | --- | --- | --- | --- | --- |")
    for work, s, t, o, lead, checks in table:
        print(f"| {work} | {fmt(s)} | {fmt(t)} | {fmt(o)} | {lead} | {checks} |")
    for note in runner.notes:
        print(f"\n{note}")
    if differ:
        print("\nDIFFER: some values disagree, see the checks column")
    return 0


if __name__ == "__main__":
    sys.exit(main())
