#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Name the addresses of an instruction profile (make bench-profile).

    bench-profile.py LOG PROFILE BUILD KO [FUNCTION]

LOG is the icount boot's serial log: the guest's kernel text symbols
(/proc/kallsyms, gzip and base64), the profiled program's memory map and
its ETW-PROFILE-DONE line with the number of events N.  PROFILE is
insn-profile.so's output (address, count).  Kernel addresses are named
from the guest's kallsyms (etw.ko's static functions included), user
addresses from the host's copies of the mapped files (BUILD's programs
and libetw, the system's libraries the image copied).  Prints one line
per function: instructions per event, share, function, where; with
FUNCTION, then each of its instructions with its count per event
(disassembled where the host has its code: etw.ko KO and user files).
"""
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
    cmd = ['objdump', '-d', '--no-show-raw-insn', '--adjust-vma=%#x' % adjust,
           '--start-address=%#x' % lo, '--stop-address=%#x' % hi, path]
    if path.endswith('.ko'):
        cmd[1:1] = ['-j', '.text']
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    insns = {}
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\s*(.*)', line)
        if m:
            insns[int(m.group(1), 16)] = m.group(2).strip()
    return insns


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    log, prof, build, ko = sys.argv[1:5]
    want = sys.argv[5] if len(sys.argv) == 6 else None
    with open(log, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    done = [l for l in lines if l.startswith('ETW-PROFILE-DONE ')]
    if not done:
        sys.exit('bench-profile: the profiled program did not finish; see %s' % log)
    case, size, n = done[-1].split()[1:4]
    n = int(n)
    etw_text = next((int(l.split()[1], 16) for l in lines
                     if l.startswith('ETW-PROFILE-ETW-TEXT ')), None)
    ksyms = kernel_symbols(lines)
    umaps = UserMaps(section(lines, 'MAPS'), build)

    counts = []
    with open(prof) as f:
        for line in f:
            if line.startswith('#'):
                continue
            a, c = line.split()
            counts.append((int(a, 16), int(c)))
    total = sum(c for _, c in counts)
    funcs = {}      # name -> [count, where, start]
    owner = {}      # address -> function name
    places = {}     # function name -> (host path or None, adjust)
    for addr, c in counts:
        if addr >= KERNEL_START:
            sa, name = ksyms.find(addr)
            name = name or '?'
            mod = name.split(' ')[1].strip('[]') if ' ' in name else 'vmlinux'
            name = name.split(' ')[0]
            key = (name, mod)
            if mod == 'etw' and etw_text is not None:
                places[key] = (ko, etw_text)
        else:
            label, name, sa, host, base = umaps.find(addr)
            key = (name or '?', label)
            places[key] = (host, base)
        funcs.setdefault(key, [0, sa])[0] += c
        owner[addr] = key
    print('instruction profile: %s %s bytes, %d events, %d instructions, %.1f per event'
          % (case, size, n, total, total / n))
    print('%10s %7s  %s' % ('per event', 'share', 'function [where]'))
    for key, (c, _) in sorted(funcs.items(), key=lambda kv: -kv[1][0]):
        if c / n < 0.5:
            continue
        print('%10.1f %6.1f%%  %s [%s]' % (c / n, 100.0 * c / total, key[0], key[1]))
    rest = sum(c for c, _ in funcs.values() if c / n < 0.5)
    if rest:
        print('%10.1f %6.1f%%  (functions under 0.5 per event: interrupts, RCU)'
              % (rest / n, 100.0 * rest / total))
    if not want:
        return
    keys = [k for k in funcs if k[0] == want]
    if not keys:
        sys.exit('bench-profile: %s ran no instruction in the window' % want)
    for key in keys:
        addrs = sorted(a for a in owner if owner[a] == key)
        host, adjust = places.get(key, (None, 0))
        insns = {}
        if host:
            lo, hi = addrs[0], addrs[-1] + 16
            insns = disassembly(host, lo, hi, adjust)
        print('\n%s [%s]: %.1f instructions per event' % (key[0], key[1], funcs[key][0] / n))
        cnt = dict(counts)
        for a in sorted(set(addrs) | set(insns)):
            c = cnt.get(a, 0) if owner.get(a) == key else 0
            print('%10.2f  %x  %s' % (c / n, a, insns.get(a, '')))


main()
