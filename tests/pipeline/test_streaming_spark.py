"""Streaming: out-of-order micro-batches within the watermark delay give the ordered local
run's output, also when the query restarts from its checkpoint in the middle."""
from __future__ import annotations

import json
import random

import pytest

from pipeline import run_local, stream
from pipeline.streaming import late_events

from _pipeline_helpers import MODULE, assert_same_output

pytestmark = pytest.mark.spark

DELAY_MS = 2000


def out_of_order_batches(events: list[dict], size: int, delay: int, rng: random.Random) -> list[list[dict]]:
    """Events (in time order) cut into micro-batches of about `size`, some held back to the
    next batch and each batch shuffled, never later than the watermark Spark will have: an
    event in batch b+1 is after (the latest time of batches 0..b) - delay."""
    base = [events[i:i + size] for i in range(0, len(events), size)]
    batches: list[list[dict]] = []
    carry: list[dict] = []
    latest = None
    for b in base:
        pool = carry + b
        held = [e for e in pool if rng.random() < 0.3]
        kept = [e for e in pool if e not in held]
        top = max([e["ts"] for e in kept] + ([latest] if latest is not None else []), default=None)
        if top is None:
            carry = held
            continue
        carry = [e for e in held if e["ts"] > top - delay]
        kept += [e for e in held if e["ts"] <= top - delay]
        latest = max(top, max((e["ts"] for e in kept), default=top))
        rng.shuffle(kept)
        batches.append(kept)
    if carry:
        batches.append(carry)
    return batches


def test_streaming_equals_ordered_local_run_across_a_restart(spark, tmp_path):
    rng = random.Random(7)
    events, t = [], 1_000_000
    for i in range(240):
        t += rng.choice([0, 5, 40, 130, 350, 900])
        events.append({"k": f"k{rng.randrange(5)}", "v": rng.randrange(100), "ts": t, "n": i})
    batches = out_of_order_batches(events, 60, DELAY_MS, rng)
    assert any(b != sorted(b, key=lambda e: e["n"]) for b in batches)      # really out of order
    end = events[-1]["ts"] + 60_000
    batches.append([{"k": None, "v": 0, "ts": end + DELAY_MS, "n": 10**9}])   # heartbeat: flush
    want = run_local(events, MODULE, event_type="T", time_column="ts", start_time=events[0]["ts"],
                     end_time=end, sequence_column="n")

    inbox, checkpoint = tmp_path / "in", tmp_path / "checkpoint"
    inbox.mkdir()
    got: list[dict] = []

    def collect(df, _batch_id):
        got.extend(r.asDict() for r in df.collect())

    source = spark.readStream.schema("k string, v int, ts long, n long").json(str(inbox))

    def start():
        out = stream(source, MODULE, event_type="T", time_column="ts", key="k",
                     watermark_delay=f"{DELAY_MS} milliseconds", start_time=events[0]["ts"],
                     sequence_column="n")
        return out.writeStream.foreachBatch(collect) \
            .option("checkpointLocation", str(checkpoint)).start()

    late = {"k": "k0", "v": 99, "ts": events[0]["ts"], "n": -1}   # before the watermark
    batches.insert(2, [late])
    query = start()
    try:
        for i, batch in enumerate(batches):
            (inbox / f"b{i:03d}.json").write_text("".join(json.dumps(e) + "\n" for e in batch))
            query.processAllAvailable()
            if i == len(batches) // 2:
                assert late_events(query) == 1
                query.stop()
                query = start()          # state comes back from the checkpoint
        query.processAllAvailable()
    finally:
        query.stop()
    assert_same_output(got, want)
