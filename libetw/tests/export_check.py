#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check what etw export wrote, as the viewers will read it, and print
what it holds as lines the tests compare (libetw/tests/export_viewers.c).

  export_check.py speedscope FILE
      The file against speedscope's rules (file-format-schema.json and
      what the schema cannot say: frame indices in range, one weight per
      sample, evented profiles balanced and in time order); then per
      profile its name, total, and each frame's inclusive weight.
  export_check.py speedscope-many FILE...
  export_check.py perfetto-many PROTO_DIR FILE...
      The same checks of many files (etw export's fuzz test), one line
      per file that fails them.
  export_check.py perfetto FILE PROTO_DIR
      The file decoded with the .proto of the tree (Debian's protoc
      compiles it for python3-protobuf): every packet decodes with no
      unknown field, timestamps in order per sequence, the first packet
      of each sequence clears its incremental state, every interned id
      resolves in its sequence, every thread of a scheduling event or
      sample has a thread track; then what it holds.
"""
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def check_speedscope(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        fail("$schema")
    frames = doc["shared"]["frames"]
    for fr in frames:
        if not isinstance(fr.get("name"), str):
            fail("frame without a name")
    units = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}
    for p in doc["profiles"]:
        if p["unit"] not in units:
            fail("unit " + p["unit"])
        name = p["name"]
        incl = defaultdict(int)
        if p["type"] == "sampled":
            if len(p["samples"]) != len(p["weights"]):
                fail(name + ": samples and weights differ in length")
            total = 0
            for stack, w in zip(p["samples"], p["weights"]):
                for i in stack:
                    if not 0 <= i < len(frames):
                        fail(name + ": frame index %d out of range" % i)
                for i in set(stack):
                    incl[frames[i]["name"]] += w
                total += w
            if total != p["endValue"] - p["startValue"]:
                fail(name + ": endValue is not the total")
        elif p["type"] == "evented":
            at, opened = None, []
            for e in p["events"]:
                if at is not None and e["at"] < at:
                    fail(name + ": events out of order")
                at = e["at"]
                if not 0 <= e["frame"] < len(frames):
                    fail(name + ": frame index out of range")
                if e["type"] == "O":
                    opened.append((e["frame"], e["at"]))
                elif not opened or opened[-1][0] != e["frame"]:
                    fail(name + ": close without its open")
                else:
                    fr, start = opened.pop()
                    incl[frames[fr]["name"]] += e["at"] - start
            if opened:
                fail(name + ": frames left open")
            if p["events"] and not (p["startValue"] <= p["events"][0]["at"] and
                                    p["events"][-1]["at"] <= p["endValue"]):
                fail(name + ": events outside startValue..endValue")
            total = p["endValue"]
        else:
            fail("profile type " + p["type"])
        print("profile %s: %s %s total %d" % (p["type"], name, p["unit"], total))
        for fname, w in sorted(incl.items(), key=lambda kv: (-kv[1], kv[0])):
            print("  %s = %d" % (fname, w))
    print("ok speedscope: %d profiles, %d frames" % (len(doc["profiles"]), len(frames)))


def check_perfetto(path, proto_dir):
    tmp = tempfile.mkdtemp()
    subprocess.run(["protoc", "--python_out=" + tmp, "-I" + proto_dir,
                    os.path.join(proto_dir, "perfetto_trace.proto")], check=True)
    sys.path.insert(0, tmp)
    import perfetto_trace_pb2 as pb
    trace = pb.Trace()
    with open(path, "rb") as f:
        trace.ParseFromString(f.read())
    last_ts = {}
    interned = defaultdict(lambda: defaultdict(dict))
    threads = {}
    processes = {}
    counts = defaultdict(int)
    sched_tids, sample_tids = set(), set()
    facts = []
    for n, pkt in enumerate(trace.packet):
        if pkt.UnknownFields() if hasattr(pkt, "UnknownFields") else False:
            fail("packet %d has unknown fields" % n)
        seq = pkt.trusted_packet_sequence_id
        if not seq:
            fail("packet %d has no sequence" % n)
        if seq not in last_ts:
            if not (pkt.sequence_flags & 1):
                fail("sequence %d does not start by clearing its state" % seq)
            last_ts[seq] = 0
        if pkt.HasField("timestamp"):
            if pkt.timestamp < last_ts[seq]:
                fail("sequence %d: timestamp %d after %d" % (seq, pkt.timestamp, last_ts[seq]))
            last_ts[seq] = pkt.timestamp
        if pkt.HasField("interned_data"):
            d = pkt.interned_data
            for kind in ("function_names", "mapping_paths", "build_ids"):
                for s in getattr(d, kind):
                    interned[seq][kind][s.iid] = s.str.decode()
            for m in d.mappings:
                for i in m.path_string_ids:
                    if i not in interned[seq]["mapping_paths"]:
                        fail("mapping path %d unknown" % i)
                interned[seq]["mappings"][m.iid] = m
            for fr in d.frames:
                if fr.function_name_id not in interned[seq]["function_names"]:
                    fail("function name %d unknown" % fr.function_name_id)
                if fr.mapping_id not in interned[seq]["mappings"]:
                    fail("mapping %d unknown" % fr.mapping_id)
                interned[seq]["frames"][fr.iid] = interned[seq]["function_names"][fr.function_name_id]
            for cs in d.callstacks:
                for i in cs.frame_ids:
                    if i not in interned[seq]["frames"]:
                        fail("frame %d unknown" % i)
                interned[seq]["callstacks"][cs.iid] = [interned[seq]["frames"][i] for i in cs.frame_ids]
        kind = pkt.WhichOneof("data")
        counts[kind] += 1
        if kind == "track_descriptor":
            td = pkt.track_descriptor
            if td.HasField("thread"):
                threads[td.thread.tid] = (td.thread.pid, td.thread.thread_name)
            elif td.HasField("process"):
                processes[td.process.pid] = td.process.process_name
        elif kind == "perf_sample":
            ps = pkt.perf_sample
            if ps.callstack_iid not in interned[seq]["callstacks"]:
                fail("callstack %d unknown in sequence %d" % (ps.callstack_iid, seq))
            sample_tids.add(ps.tid)
            stack = interned[seq]["callstacks"][ps.callstack_iid]
            for fn in set(stack):
                counts["sample tid %d: %s" % (ps.tid, fn)] += 1
            counts["samples tid %d" % ps.tid] += 1
        elif kind == "etw_events":
            for ev in pkt.etw_events.event:
                if not ev.HasField("timestamp") or not ev.HasField("cpu"):
                    fail("ETW event without timestamp or cpu")
                which = ev.WhichOneof("event")
                counts[which] += 1
                if which == "c_switch":
                    c = ev.c_switch
                    sched_tids.update((c.new_thread_id, c.old_thread_id))
                    facts.append("cswitch cpu %d %d -> %d state %d reason %d" % (
                        ev.cpu, c.old_thread_id, c.new_thread_id, c.old_thread_state_int,
                        c.old_thread_wait_reason_int))
                else:
                    r = ev.ready_thread
                    sched_tids.update((r.t_thread_id, ev.thread_id))
                    facts.append("ready %d by %d" % (r.t_thread_id, ev.thread_id))
        elif kind == "track_event":
            te = pkt.track_event
            if te.type == te.TYPE_INSTANT:
                args = " ".join("%s=%s" % (a.name, getattr(a, a.WhichOneof("value")))
                                for a in te.debug_annotations)
                facts.append("event %s flows %d ends %d %s" % (
                    te.name, len(te.flow_ids), len(te.terminating_flow_ids), args))
            elif te.type == te.TYPE_SLICE_BEGIN:
                args = " ".join("%s=%s" % (a.name, getattr(a, a.WhichOneof("value")))
                                for a in te.debug_annotations)
                facts.append("slice %s %s" % (te.name, args))
    for tid in sched_tids | sample_tids:
        if tid and tid not in threads:
            fail("thread %d has no track" % tid)
    for tid, (pid, name) in sorted(threads.items()):
        print("thread %d pid %d %s (%s)" % (tid, pid, name, processes.get(pid, "")))
    for f in facts:
        print(f)
    for k in sorted(counts):
        print("count %s = %d" % (k, counts[k]))
    print("ok perfetto: %d packets" % len(trace.packet))


def check_many(kind, files, proto_dir):
    """Each file checked as above, quietly; one line per failure."""
    import contextlib
    import io
    bad = 0
    for f in files:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                if kind == "speedscope":
                    check_speedscope(f)
                else:
                    check_perfetto(f, proto_dir)
        except (SystemExit, Exception) as e:  # a failure of this file only
            bad += 1
            last = out.getvalue().strip().splitlines()[-1:] or [repr(e)]
            print("FAIL %s: %s" % (f, last[0]))
    print("ok %s-many: %d files, %d bad" % (kind, len(files), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "speedscope-many":
        check_many("speedscope", sys.argv[2:], None)
    elif len(sys.argv) >= 4 and sys.argv[1] == "perfetto-many":
        check_many("perfetto", sys.argv[3:], sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "speedscope":
        check_speedscope(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "perfetto":
        check_perfetto(sys.argv[2], sys.argv[3])
    else:
        fail("usage: export_check.py speedscope FILE | perfetto FILE PROTO_DIR")
