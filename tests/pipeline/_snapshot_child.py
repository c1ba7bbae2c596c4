"""Child process for test_snapshot_across_processes: runs a keyed-context workload, either
whole ("full") or up to a snapshot written to a file ("first") / from that file on ("second")."""
import json
import sys

from engine import Engine
from engine.state import restore, snapshot

EPL = [
    "create schema S(k string, v int)",
    "create context Ctx partition by k from S",
    "@name('per_key') context Ctx select k, count(*) as c from S",
    "@name('big') select k, v from S(v > 5)",
]
EVENTS = [("a", 1), ("b", 7), ("a", 9), ("c", 2), ("d", 8), ("b", 1), ("e", 6), ("a", 3)]
CUT = 3


def attach(engine, out):
    for name in ("per_key", "big"):
        engine.statement(name).add_listener(
            lambda new, old, n=name: out.append([n, [e.to_dict() for e in new or ()]]))


def run(engine, events):
    for k, v in events:
        engine.send({"k": k, "v": v}, "S")


def add_late(engine, out):
    """A statement created after the cut: its filter joins nodes that restored handles hold."""
    engine.epl("@name('late') select k from S")
    engine.statement("late").add_listener(
        lambda new, old: out.append(["late", [e.to_dict() for e in new or ()]]))


def main(mode, path):
    out = []
    if mode in ("full", "first"):
        engine = Engine(time="simulated")
        for text in EPL:
            engine.epl(text)
        attach(engine, out)
        run(engine, EVENTS[:CUT])
        if mode == "full":
            add_late(engine, out)
            run(engine, EVENTS[CUT:])
        else:
            with open(path, "wb") as f:
                f.write(snapshot(engine))
    else:
        with open(path, "rb") as f:
            engine = restore(f.read())
        attach(engine, out)
        add_late(engine, out)
        run(engine, EVENTS[CUT:])
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
