"""Child process of the crash test: runs the workload, checkpointing every K events, and can
kill itself with SIGKILL at a given delivery. With --resume it restores the last checkpoint,
truncates the output back to the checkpoint's position and replays the events after it.

usage: run_child.py OUTDIR N SEED K [--kill-at DELIVERY] [--resume]"""
from __future__ import annotations

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import workload  # noqa: E402

from engine import Engine  # noqa: E402


def main(argv: list[str]) -> None:
    outdir, n, seed, every = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    kill_at = int(argv[argv.index("--kill-at") + 1]) if "--kill-at" in argv else None
    out_path = os.path.join(outdir, "out.jsonl")
    ckpt_path = os.path.join(outdir, "ckpt.bin")
    seq = [0]
    delivered = [0]
    out = open(out_path, "ab")

    def write(line: str) -> None:
        out.write(line.encode())
        out.flush()                     # per delivery: a kill loses nothing written
        delivered[0] += 1
        if kill_at is not None and delivered[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    if "--resume" in argv and os.path.exists(ckpt_path):
        engine = Engine.restore(ckpt_path)          # listeners attached below, by name
        meta = engine.checkpoint_info.meta
        start, pos = meta["events"], meta["out_pos"]
        for name, fn in workload.listeners(write, seq, [s.name for s in engine.statements]).items():
            engine.statement(name).add_listener(fn)
    else:
        engine = Engine(time="simulated", start_time=0)
        workload.build(engine)
        workload.attach(engine, write, seq)
        start, pos = 0, 0
    out.truncate(pos)                   # output after the checkpoint is produced again
    out.seek(pos)
    for i, (t, type_name, event) in enumerate(workload.events(n, seed)):
        if i < start:
            continue
        seq[0] = i
        engine.advance_time(t)
        engine.send(event, type_name)
        if (i + 1) % every == 0:
            engine.checkpoint(ckpt_path, meta={"events": i + 1, "out_pos": out.tell()})
    out.close()


if __name__ == "__main__":
    main(sys.argv[1:])
