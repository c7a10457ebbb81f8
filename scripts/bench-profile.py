#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Name the addresses of an instruction profile (make bench-profile).

    bench-profile.py LOG PROFILE BUILD KO [--func FUNCTION] [--base LOG PROFILE]

LOG is the icount boot's serial log: the guest's kernel text symbols
(/proc/kallsyms, gzip and base64), the profiled program's memory map and
its ETW-PROFILE-DONE line with the number of events N.  PROFILE is
insn-profile.so's output (address, count).  Kernel addresses are named
from the guest's kallsyms (etw.ko's static functions included), user
addresses from the host's copies of the mapped files (BUILD's programs
and libetw, the system's libraries the image copied).  Prints one line
per function: instructions per event, share, function, where; with
--func, then each of its instructions with its count per event
(disassembled where the host has its code: etw.ko KO and user files).
With --base, the difference from another profile, function by function.
"""
import argparse
import base64
import bisect
import gzip
import os
import re
import subprocess
import sys

KERNEL_START = 0xffff800000000000


def section(lines, name):
    """The lines between ETW-PROFILE-<name>-BEGIN and -END."""
    out, inside = [], False
    for line in lines:
        if line == 'ETW-PROFILE-%s-BEGIN' % name:
            inside = True
        elif line == 'ETW-PROFILE-%s-END' % name:
            return out
        elif inside:
            out.append(line)
    sys.exit('bench-profile: no %s in the log' % name)


class Symbols:
    """Sorted (address, name) with a lookup of the one at or before."""

    def __init__(self, pairs):
        pairs.sort()
        self.addrs = [a for a, _ in pairs]
        self.names = [n for _, n in pairs]

    def find(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return (self.addrs[i], self.names[i]) if i >= 0 else (None, None)

    def range_of(self, name):
        for i, n in enumerate(self.names):
            if n == name:
                end = self.addrs[i + 1] if i + 1 < len(self.addrs) else self.addrs[i] + 4096
                return self.addrs[i], end
        return None


def kernel_symbols(lines):
    text = gzip.decompress(base64.b64decode(''.join(section(lines, 'KALLSYMS'))))
    pairs = []
    for line in text.decode().splitlines():
        f = line.split()
        name = f[2] + (' ' + f[3] if len(f) > 3 else '')
        pairs.append((int(f[0], 16), name))
    return Symbols(pairs)


def elf_symbols(path):
    """(symbols relative to the load base, is it position independent)."""
    pairs = []
    for dyn in ([], ['-D']):
        out = subprocess.run(['nm', '-n', '--defined-only', '--synthetic'] + dyn + [path],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'tTwWiI':
                pairs.append((int(f[0], 16), f[2]))
        if pairs:
            break
    hdr = subprocess.run(['readelf', '-h', path], capture_output=True, text=True).stdout
    return Symbols(pairs), 'EXEC' not in hdr.split('Type:')[1].split('\n')[0]


class UserMaps:
    """The profiled program's mappings, each named from the host's copy."""

    def __init__(self, lines, build):
        self.maps = []      # (start, end, label, host path, base)
        self.files = {}
        bases = {}
        for line in lines:
            f = line.split()
            if len(f) < 6:
                continue
            start, end = (int(x, 16) for x in f[0].split('-'))
            path = f[5]
            if int(f[2], 16) == 0 and path not in bases:
                bases[path] = start
            self.maps.append((start, end, path))
        self.build = build
        self.bases = bases

    def host_path(self, path):
        name = os.path.basename(path)
        for cand in (os.path.join(self.build, 'bench', name),
                     os.path.join(self.build, 'bin', name),
                     os.path.join(self.build, 'lib', name), path):
            if os.path.isfile(cand):
                return cand
        return None

    def find(self, addr):
        """(label, symbol, symbol address, host path, base) for @addr."""
        for start, end, path in self.maps:
            if start <= addr < end:
                break
        else:
            return ('?', None, None, None, 0)
        label = os.path.basename(path)
        host = self.host_path(path) if path.startswith('/') else None
        if not host:
            return (label, None, None, None, 0)
        if host not in self.files:
            self.files[host] = elf_symbols(host)
        syms, pie = self.files[host]
        base = self.bases.get(path, 0) if pie else 0
        sa, name = syms.find(addr - base)
        return (label, name, None if sa is None else sa + base, host, base)


def disassembly(path, lo, hi, adjust):
    """address -> 'instruction text' from objdump over [lo, hi), addresses
    as loaded (the file's plus @adjust)."""
    ko = path.endswith('.ko')
    # A module's section is moved to where it was loaded (its symbols move
    # with it); a program's or library's code is read at its own
    # addresses, so that jumps name their targets, and moved afterwards.
    shift = 0 if ko else adjust
    cmd = ['objdump', '-d', '--no-show-raw-insn',
           '--start-address=%#x' % (lo - shift), '--stop-address=%#x' % (hi - shift), path]
    if ko:
        # The module's relocations name what its calls and per-CPU
        # accesses reach (the file has zeros there).
        cmd[1:1] = ['-r', '-j', '.text', '--adjust-vma=%#x' % adjust]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    insns, last = {}, None
    for line in out.splitlines():
        r = re.match(r'\s*[0-9a-f]+:\s*R_X86_64_\S+\s+(\S+)', line)
        m = re.match(r'\s*([0-9a-f]+):\s*(.*)', line)
        if r and last is not None:
            insns[last] = re.sub(r'\s+#.*', '', insns[last]) + '  <' + r.group(1) + '>'
        elif m:
            last = int(m.group(1), 16) + shift
            insns[last] = m.group(2).strip()
    return insns


def source_lines(path, addrs, adjust):
    """address -> (innermost function, file:line) from the debug info."""
    cmd = ['addr2line', '-a', '-f', '-i', '-e', path]
    if path.endswith('.ko'):
        cmd += ['-j', '.text']
    out = subprocess.run(cmd + ['%#x' % (a - adjust) for a in addrs],
                         capture_output=True, text=True).stdout.splitlines()
    where, i = {}, 0
    for line in out:
        if line.startswith('0x'):
            cur = int(line, 16) + adjust
            i = 0
        else:
            i += 1
            if i == 2 and cur not in where:
                where[cur] = (prev, os.path.basename(line.split(' ')[0]))
            prev = line
    return where


class Profile:
    """One boot's counts, each address given to its function."""

    def __init__(self, log, prof, build, ko):
        with open(log, errors='replace') as f:
            lines = [l.rstrip('\r\n') for l in f]
        done = [l for l in lines if l.startswith('ETW-PROFILE-DONE ')]
        if not done:
            sys.exit('bench-profile: the profiled program did not finish; see %s' % log)
        self.case, self.size, n = done[-1].split()[1:4]
        self.n = int(n)
        etw_text = next((int(l.split()[1], 16) for l in lines
                         if l.startswith('ETW-PROFILE-ETW-TEXT ')), None)
        ksyms = kernel_symbols(lines)
        umaps = UserMaps(section(lines, 'MAPS'), build)
        self.counts = {}
        with open(prof) as f:
            for line in f:
                if not line.startswith('#'):
                    a, c = line.split()
                    self.counts[int(a, 16)] = int(c)
        self.total = sum(self.counts.values())
        self.funcs = {}     # (function, where) -> instructions
        self.owner = {}     # address -> (function, where)
        self.places = {}    # (function, where) -> (file with its code, load address)
        for addr, c in self.counts.items():
            if addr >= KERNEL_START:
                name = ksyms.find(addr)[1] or '?'
                mod = name.split(' ')[1].strip('[]') if ' ' in name else 'vmlinux'
                key = (name.split(' ')[0], mod)
                if mod == 'etw' and etw_text is not None:
                    self.places[key] = (ko, etw_text)
            else:
                label, name, _, host, base = umaps.find(addr)
                key = (name or '?', label)
                self.places[key] = (host, base)
            self.funcs[key] = self.funcs.get(key, 0) + c
            self.owner[addr] = key

    def title(self):
        return '%s %s bytes, %d events, %d instructions, %.1f per event' % (
            self.case, self.size, self.n, self.total, self.total / self.n)

    def table(self):
        n, total = self.n, self.total
        print('instruction profile: ' + self.title())
        print('%10s %7s  %s' % ('per event', 'share', 'function [where]'))
        rest = 0
        for key, c in sorted(self.funcs.items(), key=lambda kv: -kv[1]):
            if c / n < 0.5:
                rest += c
                continue
            print('%10.1f %6.1f%%  %s [%s]' % (c / n, 100.0 * c / total, key[0], key[1]))
        if rest:
            print('%10.1f %6.1f%%  (functions under 0.5 per event: interrupts, RCU)'
                  % (rest / n, 100.0 * rest / total))

    def difference(self, base):
        """Per event, function by function: this profile less @base."""
        print('instruction profile: ' + self.title())
        print('less the base:       ' + base.title())
        print('%10s %10s %10s  %s' % ('this', 'base', 'added', 'function [where]'))
        rows = []
        for key in set(self.funcs) | set(base.funcs):
            a = self.funcs.get(key, 0) / self.n
            b = base.funcs.get(key, 0) / base.n
            rows.append((a - b, a, b, key))
        rest = [0, 0, 0]
        for d, a, b, key in sorted(rows, key=lambda r: (-abs(r[0]), r[3])):
            if abs(d) < 0.5:
                rest = [rest[0] + a, rest[1] + b, rest[2] + d]
                continue
            print('%10.1f %10.1f %+10.1f  %s [%s]' % (a, b, d, key[0], key[1]))
        print('%10.1f %10.1f %+10.1f  (the same in both, or under 0.5 apart)' % tuple(rest))
        print('%10.1f %10.1f %+10.1f  total' % (self.total / self.n, base.total / base.n,
                                                self.total / self.n - base.total / base.n))

    def annotate(self, want):
        keys = [k for k in self.funcs if k[0] == want]
        if not keys:
            sys.exit('bench-profile: %s ran no instruction in the window' % want)
        n = self.n
        for key in keys:
            addrs = sorted(a for a in self.owner if self.owner[a] == key)
            host, adjust = self.places.get(key, (None, 0))
            insns = disassembly(host, addrs[0], addrs[-1] + 16, adjust) if host else {}
            where = source_lines(host, addrs, adjust) if host else {}
            print('\n%s [%s]: %.1f instructions per event' % (key[0], key[1], self.funcs[key] / n))
            inlined = {}
            for a in sorted(set(addrs) | set(insns)):
                c = self.counts.get(a, 0) if self.owner.get(a) == key else 0
                fn, line = where.get(a, ('', ''))
                print('%10.2f  %x  %-50s %s' % (c / n, a, insns.get(a, ''), line))
                if c:
                    inlined[fn or '?'] = inlined.get(fn or '?', 0) + c
            if where:
                print('\nby the function each instruction was written in (inlining undone):')
                for fn, c in sorted(inlined.items(), key=lambda kv: -kv[1]):
                    print('%10.1f  %s' % (c / n, fn))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('log')
    ap.add_argument('profile')
    ap.add_argument('build')
    ap.add_argument('ko')
    ap.add_argument('--func', help='list this function instruction by instruction')
    ap.add_argument('--base', nargs=2, metavar=('LOG', 'PROFILE'),
                    help='print the difference from this profile')
    args = ap.parse_args()
    prof = Profile(args.log, args.profile, args.build, args.ko)
    if args.base:
        prof.difference(Profile(args.base[0], args.base[1], args.build, args.ko))
    else:
        prof.table()
    if args.func:
        prof.annotate(args.func)


main()
