#!/usr/bin/python3
"""Soak: the daemon (`aquavate-bridge run`) through N syncs with random faults against aquavate-sim
on a private bus, sampling its resident memory and open descriptors (docs/design.md 5: the last 1,000
syncs within 1 MB and 2 descriptors of the first 1,000), and at the end checking that every drink
the bottle recorded is in the history exactly once.

    scripts/release-build.sh --scratch-path .build-bench   # the release build (make build)
    scripts/release-build.sh --scratch-path .build-bench --product aquavate-sim
    /usr/bin/python3 Benchmarks/soak.py   # Debian's python3, for python3-dbus [--syncs 10000] [--seed S] [--bin .build-bench/release]

The faults (one decision per finished sync, seeded): a drink added (so most syncs carry data); the
link dropped or the device object vanishing shortly after the next connection begins; the bottle
put to sleep and woken 0.3-1.5 s later. The daemon runs with --cooldown 0 and the simulator with
--fast, so a sync takes a few tenths of a second.
"""
import argparse, json, os, random, re, signal, sqlite3, subprocess, sys, tempfile, time

import dbus  # python3-dbus (scripts/install-deps.sh)

LOOKING = re.compile(r"looking for the bottle on ")
SUMMARY = re.compile(r"synced [0-9A-F:]+: |had nothing to sync|sync with [0-9A-F:]+ failed|reports \d+ unsynced")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--syncs", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--bin", default=".build-bench/release")
    parser.add_argument("--csv", help="write the samples here (sync, seconds, rss_kib, anon_kib, fds)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="aquavate-soak-")
    children = []

    def stop_all():
        for child in reversed(children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(10)
                except subprocess.TimeoutExpired:
                    child.kill()

    try:
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                                f"--address=unix:path={work}/bus.sock"], stdout=subprocess.PIPE, text=True)
        children.append(bus)
        address = bus.stdout.readline().strip()
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        state = f"{work}/bottle.json"
        sim = subprocess.Popen([f"{args.bin}/aquavate-sim", "--bus", address, "--records", "20", "--fast",
                                "--disconnect-delay", "0.05", "--state-file", state, "--quiet"],
                               env=env, stderr=open(f"{work}/sim.log", "w"))
        children.append(sim)
        for _ in range(100):
            if os.path.exists(state):
                break
            time.sleep(0.1)
        log_path = f"{work}/bridge.log"
        db = f"{work}/history.sqlite"
        daemon = subprocess.Popen([f"{args.bin}/aquavate-bridge", "run", "--db", db, "--cooldown", "0",
                                   "--failure-pause", "0.2"], env=env, stderr=open(log_path, "w"), stdout=subprocess.DEVNULL)
        children.append(daemon)
        control = dbus.Interface(dbus.bus.BusConnection(address).get_object("org.bluez", "/"), "org.aquavate.Simulator1")

        print(f"soak: {args.syncs} syncs, seed {args.seed}, daemon pid {daemon.pid}, work {work}", flush=True)
        samples, drinks_added, faults = [], 0, {"drop": 0, "vanish": 0, "sleep": 0}
        syncs, offset, started, pending = 0, 0, time.monotonic(), []
        sample_next = False
        log = open(log_path)
        last_progress = time.monotonic()
        while syncs < args.syncs:
            line = log.readline()
            now = time.monotonic()
            for when, action in [p for p in pending if p[0] <= now]:
                pending.remove((when, action))
                action()
            if not line:
                if daemon.poll() is not None:
                    sys.exit(f"soak: the daemon exited ({daemon.returncode}) after {syncs} syncs; see {log_path}")
                if now - last_progress > 60:
                    sys.exit(f"soak: no sync finished for 60 s after {syncs}; see {log_path}")
                time.sleep(0.01)
                continue
            # The sample is taken as the daemon starts looking for the bottle again: after it gave
            # back its code pages (ResidentCode, before each wait), so every sample is of the same
            # moment; one taken just before the release reads several MiB more.
            if sample_next and LOOKING.search(line):
                sample_next = False
                status = open(f"/proc/{daemon.pid}/status").read()
                rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
                anon = int(re.search(r"RssAnon:\s+(\d+)", status).group(1))
                fds = len(os.listdir(f"/proc/{daemon.pid}/fd"))
                samples.append((syncs, round(now - started, 1), rss, anon, fds))
                if syncs % 1000 == 0:
                    print(f"soak: {syncs} syncs in {now - started:.0f} s: resident {rss} KiB ({anon} anonymous), {fds} fds", flush=True)
                continue
            if not SUMMARY.search(line):
                continue
            syncs += 1
            last_progress = now
            if syncs % 10 == 0:
                sample_next = True
            roll = rng.random()
            if roll < 0.5:
                control.AddDrink(dbus.UInt16(rng.randint(20, 400)))
                drinks_added += 1
            elif roll < 0.58:
                faults["drop"] += 1
                pending.append((now + rng.uniform(0.05, 0.4), control.DropLink))
            elif roll < 0.62:
                faults["vanish"] += 1
                pending.append((now + rng.uniform(0.05, 0.4), control.Vanish))
            elif roll < 0.68:
                faults["sleep"] += 1
                control.Sleep()
                pending.append((now + rng.uniform(0.3, 1.5), control.Wake))
        for when, action in pending:
            action()
        elapsed = time.monotonic() - started
        # Let the last drinks arrive (at most 60 s), then stop the daemon and compare with the bottle.
        control.Wake()
        count = lambda: sqlite3.connect(db, timeout=10).execute(
            "select count(*), count(distinct record_id) from drink").fetchone()
        # What the bottle itself recorded: a drink below its 30 ml threshold makes no record.
        recorded = lambda: json.load(open(state))["next_record_id"] - 1
        deadline = time.monotonic() + 60
        while count()[0] < recorded() and time.monotonic() < deadline:
            time.sleep(0.5)
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(30)
        stored = count()
        print(f"soak: {syncs} syncs in {elapsed:.0f} s ({elapsed / syncs * 1000:.0f} ms each); {drinks_added} drinks added, "
              f"faults {faults}; exit status {daemon.returncode}")
        print(f"soak: history holds {stored[0]} drinks ({stored[1]} distinct record ids) of {recorded()} the bottle recorded "
              f"({drinks_added} drinks added, those under 30 ml make no record)")
        first = [s for s in samples if s[0] <= 1000]
        last = [s for s in samples if s[0] > syncs - 1000]
        mean = lambda rows, i: sum(r[i] for r in rows) / len(rows)
        if first and last:
            d_rss = (mean(last, 2) - mean(first, 2)) / 1024
            d_fds = mean(last, 4) - mean(first, 4)
            print(f"soak: first 1,000 syncs: resident {mean(first, 2) / 1024:.1f} MiB, {mean(first, 4):.1f} fds; "
                  f"last 1,000: {mean(last, 2) / 1024:.1f} MiB, {mean(last, 4):.1f} fds; "
                  f"growth {d_rss:+.2f} MiB, {d_fds:+.1f} fds (budget: 1 MB, 2 fds)")
        if args.csv:
            with open(args.csv, "w") as out:
                out.write("sync,seconds,rss_kib,anon_kib,fds\n")
                out.writelines(",".join(map(str, s)) + "\n" for s in samples)
        ok = stored[0] == recorded() and stored[0] == stored[1] and daemon.returncode == 0
        print("soak: " + ("every drink stored once" if ok else "FAILED: drinks missing or the daemon did not stop cleanly"))
        sys.exit(0 if ok else 1)
    finally:
        stop_all()


if __name__ == "__main__":
    main()
