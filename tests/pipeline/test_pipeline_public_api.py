"""The pipeline package's public names."""
import pipeline


def test_public_names():
    assert sorted(pipeline.__all__) == sorted([
        "replay", "replay_to_parquet", "run_local", "run_partitioned", "check_partitionable", "Verdict",
        "spark_session", "stream", "DEFAULT_FLUSH_MS"])
    for name in pipeline.__all__:
        assert getattr(pipeline, name) is not None
