"""Log and session correlation: web-server log lines become events; EPL ties each session's
lines together.

Run it: `python samples/log_sessions.py`.

- Lines look like `2026-11-24T10:00:03Z s17 ann GET /cart 200`; each becomes a `Log` event
  (session, user, path, status, t).
- `duration`: a session's login followed by its logout, with the time between them.
- `abandoned`: a login without a logout of that session within 5 minutes.
- `errors`: per session, three or more 5xx responses within a minute (a keyed context: one
  counter per session, created when the session's first line arrives).
"""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from engine import Engine

MODULE = """
create schema Log(session string, user string, path string, status int, t long);

@name('duration') select a.session as session, a.user as user, (b.t - a.t) / 1000 as duration_s
  from pattern [every a=Log(path = '/login') -> b=Log(path = '/logout' and session = a.session)];

@name('abandoned') select a.session as session, a.user as user
  from pattern [every a=Log(path = '/login')
                -> (timer:interval(5 min) and not Log(path = '/logout' and session = a.session))];

create context PerSession partition by session from Log;

@name('errors') context PerSession
  select session, user, count(*) as failures from Log(status >= 500)#time(1 min)
  having count(*) >= 3
"""

START = datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc)


def log_lines(seed: int = 5) -> list[str]:
    rnd = random.Random(seed)
    lines = []
    for n, user in enumerate(["ann", "bob", "cyd", "dan", "eve"]):
        session, t = f"s{n}", START + timedelta(seconds=rnd.randint(0, 120))
        pages = ["/login"] + [rnd.choice(["/cart", "/search", "/item", "/pay"]) for _ in range(6)]
        if user != "dan":                          # dan never logs out
            pages.append("/logout")
        for path in pages:
            status = 503 if user == "cyd" and path != "/login" else 200   # cyd hits an outage
            lines.append(f"{t:%Y-%m-%dT%H:%M:%SZ} {session} {user} GET {path} {status}")
            t += timedelta(seconds=rnd.randint(2, 20))
    return sorted(lines)


def parse(line: str) -> dict:
    stamp, session, user, _method, path, status = line.split()
    t = int(datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp() * 1000)
    return {"session": session, "user": user, "path": path, "status": int(status), "t": t}


def run() -> list[tuple[int, str, dict]]:
    events = [parse(line) for line in log_lines()]
    engine = Engine(time="simulated", start_time=events[0]["t"])
    found: list[tuple[int, str, dict]] = []
    for stmt in engine.deploy(MODULE):
        if stmt.kind == "select":
            stmt.add_listener(lambda new, old, name=stmt.name:
                              found.extend((engine.now, name, e.to_dict()) for e in new))
    for e in events:
        engine.advance_time_span(e["t"])
        engine.send(e, "Log")
    engine.advance_time_span(events[-1]["t"] + 10 * 60_000)
    return found


def main() -> None:
    for t, rule, row in run():
        when = datetime.fromtimestamp(t / 1000, tz=timezone.utc)
        print(f"{when:%H:%M:%S}  {rule:<9}  {row}")


if __name__ == "__main__":
    main()
