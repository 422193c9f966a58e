#!/usr/bin/env python3
"""Per-function branch coverage of the model from a JaCoCo XML report (tools/coverage/run).

   tools/coverage/unreached.py [REPORT_DIR] [--all] [--summary] [--tally]

Reads REPORT_DIR/coverage.xml (default target/coverage) and docs/KERNEL-INDEX.md, which names the
Java method that mirrors each kernel function. Prints, for the modelled kernel functions (methods
in the index): the branch figure over them (the issue's 90% goal counts these), then each function
with unreached branches, most unreached first: module, kernel symbol, Java method, branches
unreached/total, and each source line holding an unreached branch with its text. --all lists the
model's other methods (helpers, checks) too; --summary prints only the per-module figures
(all branches of the module's classes, and those of its modelled kernel functions); --tally
prints only the tally of reasons.

The reason of each unreached branch, first that applies (docs/coverage.md, "Reasons"):
  1. "reached under a switch form": REPORT_DIR/forms/coverage.xml (tools/coverage/run --forms)
     reaches it (measured: the line has fewer unreached branches with the forms and catalog bugs);
  2. a reason read by hand in docs/coverage-reasons.txt, keyed by the Java method and a prefix of
     the source line's text (or "*" for every other line of the method), so it survives line moves;
  3. "assertion that held": the line is a model assertion (BUG_ON, WARN_ON, VM_BUG_ON_PAGE,
     Kernel.fail, lockdep), whose firing side must never be reached on a correct model;
  4. "unclassified", with a mechanical hint in parentheses for the reader.
A fast test (tools: CoverageReasonsTest) fails when docs/coverage-unreached.txt holds an
unclassified line or a line the reasons file no longer explains, or the file holds a stale entry.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
show_all = "--all" in sys.argv
report = args[0] if args else os.path.join(root, "target", "coverage")
tree = ET.parse(os.path.join(report, "coverage.xml")).getroot()

index = {}
with open(os.path.join(root, "docs", "KERNEL-INDEX.md")) as f:
    for line in f:
        m = re.match(r"\| (\S+) \| `([^`]+)` \| [^|]* \| `([^`#]+)#([^`]+)` \|", line)
        if m:
            index.setdefault((m.group(3), m.group(4)), []).append(m.group(1) + ": " + m.group(2))

MODULE_DIRS = {"kmodel/kernel": "kernel", "kmodel/mm": "mm-filemap", "kmodel/block": "block",
               "kmodel/fs/blockdev": "block", "kmodel/fs/btrfs": "fs-btrfs", "kmodel/iouring": "io-uring"}


def module_of(pkg):
    best = ""
    for k in MODULE_DIRS:
        if (pkg == k or pkg.startswith(k + "/")) and len(k) > len(best):
            best = k
    return MODULE_DIRS.get(best, pkg)


VERSIONED = re.compile(r"V\d{2,3}$")


ASSERTION = re.compile(r"^(?:if \(!?)?(?:\w+\.)?(?:BUG_ON|WARN_ON|WARN_ON_ONCE|VM_BUG_ON_PAGE|VM_BUG_ON|fail|lockdepAssert\w*)\(")


def hint(method, text, called):
    """A mechanical hint for an unclassified branch (a reader confirms it and records the reason)."""
    if not called:
        return "function never called"
    if "Kernel.bug(" in text or "Bugs." in text:
        return "catalog-bug switch"
    if VERSIONED.search(method) or "config()" in text or "Options." in text:
        return "form behind a Kconfig switch"
    if re.search(r"-Errno\.|ENOMEM|error|err\b|ret < 0|== null", text):
        return "error path not injected"
    return "needs reading"


def load_reasons(path):
    """docs/coverage-reasons.txt: {java method: [(line text prefix or '*', reason, entry id)]}."""
    reasons = {}
    method = None
    try:
        f = open(path)
    except OSError:
        return reasons
    with f:
        for nr, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line.startswith(" "):
                method = line.strip()
                reasons.setdefault(method, [])
                continue
            text, sep, why = line.strip().partition(" => ")
            if not sep or method is None:
                sys.exit("%s:%d: expected 'LINE TEXT => REASON' under a method" % (path, nr))
            reasons[method].append((text.strip(), why.strip(), nr))
    return reasons


REASONS = load_reasons(os.path.join(root, "docs", "coverage-reasons.txt"))
USED = set()


def reason(jname, method, text, called):
    """The reason of an unreached line: the reasons file's, an assertion, or unclassified with a hint."""
    entries = REASONS.get(jname, [])
    for prefix, why, nr in entries:
        if prefix != "*" and text.startswith(prefix):
            USED.add(nr)
            return why
    if called and ASSERTION.search(text):
        return "assertion that held"
    for prefix, why, nr in entries:
        if prefix == "*":
            USED.add(nr)
            return why
    return "unclassified (%s)" % hint(method, text, called)


def forms_lines():
    """{(package, sourcefile, line): unreached branches} of the report including switch forms, or None."""
    p = os.path.join(report, "forms", "coverage.xml")
    if not os.path.exists(p):
        return None
    t = ET.parse(p).getroot()
    out = {}
    for pkg in t.findall("package"):
        for sf in pkg.findall("sourcefile"):
            for ln in sf.findall("line"):
                out[(pkg.get("name"), sf.get("name"), int(ln.get("nr")))] = int(ln.get("mb"))
    return out


FORMS = forms_lines()


def src_lines(module, pkg, fname):
    p = os.path.join(root, module, "src", "main", "java", pkg, fname)
    try:
        with open(p) as f:
            return f.read().split("\n")
    except OSError:
        return []


rows = []
kern_missed = kern_total = 0
per_module = {}
tally = {}
for pkg in tree.findall("package"):
    pname = pkg.get("name")
    module = module_of(pname)
    files = {sf.get("name"): sf for sf in pkg.findall("sourcefile")}
    for cls in pkg.findall("class"):
        cname = cls.get("name").replace("/", ".")
        outer = cname.split("$")[0]
        sf = files.get(cls.get("sourcefilename"))
        methods = []
        for m in cls.findall("method"):
            br = [c for c in m.findall("counter") if c.get("type") == "BRANCH"]
            mb = int(br[0].get("missed")) if br else 0
            cb = int(br[0].get("covered")) if br else 0
            called = [c for c in m.findall("counter") if c.get("type") == "METHOD" and int(c.get("covered")) > 0]
            methods.append((int(m.get("line") or 0), m.get("name"), mb, cb, bool(called)))
        starts = sorted(x[0] for x in methods)
        methods = [x for x in methods]
        text = src_lines(module, pname, cls.get("sourcefilename"))
        for start, name, mb, cb, called in methods:
            syms = index.get((outer, name), [])
            pm = per_module.setdefault(module, [0, 0, 0, 0])
            pm[0] += mb
            pm[1] += mb + cb
            if syms:
                pm[2] += mb
                pm[3] += mb + cb
                kern_missed += mb
                kern_total += mb + cb
            if mb == 0 or (not syms and not show_all):
                continue
            nxt = min([s for s in starts if s > start] or [10 ** 9])
            lines = []
            if sf is not None:
                for ln in sf.findall("line"):
                    nr = int(ln.get("nr"))
                    mbl = int(ln.get("mb"))
                    if start <= nr < nxt and mbl > 0:
                        t = text[nr - 1].strip() if nr - 1 < len(text) else ""
                        left = mbl
                        if FORMS is not None:
                            left = min(mbl, FORMS.get((pname, cls.get("sourcefilename"), nr), mbl))
                        whys = []
                        if left < mbl:
                            whys.append(("reached under a switch form", mbl - left))
                        if left > 0:
                            whys.append((reason(outer + "#" + name, name, t, called), left))
                        if syms:
                            for why, n in whys:
                                key = why.split(":")[0] if not why.startswith("unclassified") else "unclassified"
                                tally[key] = tally.get(key, 0) + n
                        why = "; ".join(w if len(whys) == 1 else "%d: %s" % (n, w) for w, n in whys)
                        lines.append("      %s:%d  %s/%s unreached  [%s]  %s" % (cls.get("sourcefilename"), nr, mbl,
                                                                               mbl + int(ln.get("cb")), why, t[:100]))
            rows.append((mb, module, ", ".join(syms) or "(model helper)", cname + "#" + name, mb + cb, lines))

print("%-10s %22s %34s" % ("module", "branches reached", "of modelled kernel functions"))
tot = [0, 0, 0, 0]
for mod in ["kernel", "mm-filemap", "block", "fs-btrfs", "io-uring"]:
    m = per_module.get(mod, [0, 0, 0, 0])
    tot = [a + b for a, b in zip(tot, m)]
    print("%-10s %6d/%-6d %6.1f%%   %6d/%-6d %6.1f%%" % (mod, m[1] - m[0], m[1], 100.0 * (m[1] - m[0]) / max(1, m[1]),
                                                    m[3] - m[2], m[3], 100.0 * (m[3] - m[2]) / max(1, m[3])))
print("%-10s %6d/%-6d %6.1f%%   %6d/%-6d %6.1f%%" % ("total", tot[1] - tot[0], tot[1], 100.0 * (tot[1] - tot[0]) / max(1, tot[1]),
                                                tot[3] - tot[2], tot[3], 100.0 * (tot[3] - tot[2]) / max(1, tot[3])))
print()
print("unreached branches of modelled kernel functions by reason (docs/coverage.md, \"Reasons\"):")
for why, n in sorted(tally.items(), key=lambda x: -x[1]):
    print("  %5d  %s" % (n, why))
if "--summary" in sys.argv or "--tally" in sys.argv:
    sys.exit(0)
print()
print("modelled kernel functions: %d of %d branches reached (%.1f%%)" % (
    kern_total - kern_missed, kern_total, 100.0 * (kern_total - kern_missed) / max(1, kern_total)))
for mb, module, sym, jname, total, lines in sorted(rows, key=lambda r: (-r[0], r[3])):
    print("%3d/%-3d %-10s %s  (%s)" % (mb, total, module, sym, jname))
    for l in lines:
        print(l)
