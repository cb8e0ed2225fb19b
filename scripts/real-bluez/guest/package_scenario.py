# The Debian package as a Raspberry Pi owner installs it (docs/raspberry-pi.md 2), on a machine
# booted with systemd (scripts/real-bluez/guest/systemd-init), the real bluetoothd started by its
# own unit, BlueZ's blanket D-Bus rule removed (so the package's own policy is the only way to
# org.bluez), and a bottle with a backlog on the emulated radio (bottle.py, radio.py).
#
# The steps run in order, each on what the one before left (a person's machine has one history):
# each writes what it checked, whether it passed and its figures into /results/package.json; the
# first failure ends the run (the later steps would only repeat it). Every command run and its
# output goes to /results/commands.log, the whole boot's journal to /results/journal.txt.
import argparse
import asyncio
import glob
import grp
import json
import logging
import os
import pwd
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bumble.transport import open_transport  # noqa: E402

from bottle import Bottle, Options  # noqa: E402
from harness import Failed, check, stored_drinks, timed_entry, wait_for  # noqa: E402
from radio import FaithfulController, FaithfulLink  # noqa: E402

UNIT = "aquavate-bridge"
CONFIG = "/etc/aquavate/bridge.toml"
STATE = "/var/lib/aquavate-bridge"
HISTORY = f"{STATE}/history.sqlite"
BOTTLE = "F4:12:FA:00:A3:F6"
# bluetoothd 5.66 logs this at error level once for each LE link it ends at a client's request on
# this kernel (docs/bluez.md 7.8 and 8.4 show why no client can avoid it); it is the only error line
# allowed in the journal, exactly once per session the bridge ended.
ALLOWED_BLUETOOTHD_ERROR = "No matching connection for device"
# The reason the bottle hears when the central's host ends the link (radio.py, gap 4).
REMOTE_USER_TERMINATED = 0x13
log = logging.getLogger("package")



class Machine:
    def __init__(self, results, packages):
        self.results = results
        self.current = sorted(glob.glob(f"{packages}/current/*.deb"))
        self.earlier = sorted(glob.glob(f"{packages}/earlier/*.deb"))
        self.commands = open(f"{results}/commands.log", "a")
        self.link = FaithfulLink()
        self.bottle = None
        self.install_cursor = None

    # -- commands, as a person types them; none may block the loop the radio runs on ------------
    async def run(self, *argv, timeout=300, env=None, cwd=None):
        started = time.monotonic()
        self.commands.write(f"\n$ {' '.join(argv)}\n")
        self.commands.flush()
        environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive", **(env or {}))
        process = await asyncio.create_subprocess_exec(
            *argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment, cwd=cwd)
        try:
            out, _ = await asyncio.wait_for(process.communicate(), timeout)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()
            raise Failed(f"`{' '.join(argv)}` still running after {timeout} s")
        text = out.decode(errors="replace")
        self.commands.write(f"{text}[exit {process.returncode}, {time.monotonic() - started:.1f} s]\n")
        self.commands.flush()
        return process.returncode, text

    async def must(self, *argv, **options):
        status, out = await self.run(*argv, **options)
        check(status == 0, f"`{' '.join(argv)}` exited {status}: {out.strip()[-400:]}")
        return out

    async def apt(self, verb, deb=None):
        """`apt install ./FILE.deb` from the package's folder, `apt remove` / `apt purge` by name."""
        if deb is None:
            return await self.must("apt-get", verb, "-y", UNIT)
        return await self.must("apt", "install", "-y", f"./{os.path.basename(deb)}", cwd=os.path.dirname(deb))

    async def wait_for(self, condition, seconds, what):
        await wait_for(condition, seconds, what)

    async def property(self, name):
        _, out = await self.run("systemctl", "show", "-p", name, "--value", UNIT)
        return out.strip()

    async def active(self):
        return await self.property("ActiveState") == "active"

    async def wait_active(self, what):
        await self.wait_for(self.active, 60, f"{UNIT} active ({what})")
        return int(await self.property("MainPID"))

    # -- the radio and the bottle ----------------------------------------------------------------
    async def adapter_powered(self):
        _, reply = await self.run(
            "dbus-send", "--system", "--print-reply", "--dest=org.bluez", "/org/bluez/hci0",
            "org.freedesktop.DBus.Properties.Get", "string:org.bluez.Adapter1", "string:Powered")
        return "boolean true" in reply

    async def start_radio(self):
        self.transport = await open_transport("vhci")
        self.hci0 = FaithfulController("hci0", host_source=self.transport.source,
                                       host_sink=self.transport.sink, link=self.link,
                                       public_address="00:1B:DC:0A:00:01")
        # bluetoothd (bluetooth.service) powers the new controller itself (AutoEnable).
        await self.wait_for(self.adapter_powered, 90, "hci0 powered by bluetooth.service's bluetoothd")
        self.bottle = Bottle(Options(address=BOTTLE, serial="F4:12:FA:00:A3:F4", name="Aquavate-A3F2"))
        controller = FaithfulController("bottle", link=self.link, public_address=BOTTLE)
        await self.bottle.power_on(controller)

    def add_drinks(self, count):
        """Drinks after the newest the bottle holds, a second apart, all in the past."""
        newest = max((r.timestamp for r in self.bottle.records), default=int(time.time()) - 4 * 3600)
        self.bottle.add_drinks(count, start=newest + 1, spacing=1)

    @staticmethod
    def stored():
        return stored_drinks(HISTORY)

    async def synced(self, what, seconds=240):
        """The bottle emptied by the service, and every record it sent stored once."""
        async def done():
            return self.bottle.unsynced() == 0
        await self.wait_for(done, seconds, f"the service to sync the bottle ({what})")
        rows = self.stored()
        sent = {(r.record_id, r.timestamp) for r in self.bottle.records}
        lost = sent - set(rows)
        check(not lost, f"{len(lost)} records lost ({what}), e.g. {sorted(lost)[:3]}")
        check(len(rows) == len(set(rows)), f"{len(rows) - len(set(rows))} records stored twice ({what})")
        return len(rows)

    # -- what the steps check ----------------------------------------------------------------------
    @staticmethod
    def process_status(pid):
        fields = {}
        for line in open(f"/proc/{pid}/status"):
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        return fields

    async def journal(self, *args):
        _, out = await self.run("journalctl", "--no-pager", "-o", "short-monotonic", *args)
        return [line for line in out.splitlines() if line and not line.startswith("-- ")]

    def setting(self, key):
        """The value of a top-level `key = value` line of the settings file, or None."""
        if not os.path.exists(CONFIG):
            return None
        section = ""
        for line in open(CONFIG):
            line = line.strip()
            if line.startswith("["):
                section = line.strip("[]")
            elif "=" in line and not line.startswith("#"):
                name, _, value = line.partition("=")
                if f"{section}.{name.strip()}".strip(".") == key:
                    return value.strip().strip('"\'')
        return None


# -- the steps ------------------------------------------------------------------------------------
# Each is (name, what it checks, coroutine): the coroutine raises Failed, or returns its figures.

async def install(m):
    check(m.current, "no package in /aquavate/packages/current")
    m.add_drinks(120)
    _, cursor = await m.run("journalctl", "-n", "0", "--show-cursor", "--no-pager")
    m.install_cursor = cursor.strip().rpartition("cursor: ")[2]
    started = time.monotonic()
    await m.apt("install", m.current[0])
    seconds = round(time.monotonic() - started, 1)
    user = pwd.getpwnam("aquavate")
    check(user.pw_uid < 1000, f"aquavate is uid {user.pw_uid}, not a system account")
    check(user.pw_shell == "/usr/sbin/nologin", f"aquavate's shell is {user.pw_shell}")
    _, enabled = await m.run("systemctl", "is-enabled", UNIT)
    check(enabled.strip() == "enabled", f"{UNIT} is {enabled.strip()} after the installation")
    await m.wait_active("started by the package")
    stat = os.stat(CONFIG)
    check((stat.st_mode & 0o777, stat.st_uid, grp.getgrgid(stat.st_gid).gr_name) == (0o640, 0, "aquavate"),
          f"{CONFIG} is {oct(stat.st_mode & 0o777)} uid {stat.st_uid} gid {stat.st_gid}, not root:aquavate 0640")
    return {"apt_install_s": seconds, "uid": user.pw_uid}


async def first_start(m):
    """The service the package started reaches BlueZ at once: no refusal by D-Bus, ever."""
    # The first start syncs the bottle before any setup: the only bottle around is adopted.
    records = await m.synced("the first start, before setup")
    refused = [line for line in await m.journal("-u", UNIT, "--after-cursor", m.install_cursor)
               if "AccessDenied" in line or "refused" in line]
    check(not refused, f"the service was refused by the system bus: {refused[:2]}")
    return {"records": records}


async def setup(m):
    await m.must("aquavate-bridge", "setup", "--yes", "--config", CONFIG, "--bottle", BOTTLE,
                 "--timezone", "Europe/Madrid", "--goal", "2300")
    stat = os.stat(CONFIG)
    check((stat.st_mode & 0o777, stat.st_uid, grp.getgrgid(stat.st_gid).gr_name) == (0o640, 0, "aquavate"),
          f"setup changed {CONFIG} to {oct(stat.st_mode & 0o777)} uid {stat.st_uid} gid {stat.st_gid}")
    check(m.setting("bottle.address") == BOTTLE, f"bottle.address is {m.setting('bottle.address')}")
    check(m.setting("daily_goal_ml") == "2300", f"daily_goal_ml is {m.setting('daily_goal_ml')}")
    before = int(await m.property("MainPID"))
    m.add_drinks(20)
    await m.must("systemctl", "restart", UNIT)
    after = await m.wait_active("restarted after setup")
    check(after != before, "systemctl restart left the same process")
    return {"records": await m.synced("after setup and the restart")}


async def service(m):
    """Who the service runs as and what it may do; `doctor --service` and `status` as documented."""
    pid = int(await m.property("MainPID"))
    status = m.process_status(pid)
    uid = pwd.getpwnam("aquavate").pw_uid
    check(status["Uid"].split() == [str(uid)] * 4, f"the service runs as uids {status['Uid']}, not aquavate ({uid})")
    for capabilities in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        check(int(status[capabilities], 16) == 0, f"{capabilities} {status[capabilities]}: the service has capabilities")
    check(status["NoNewPrivs"] == "1", f"NoNewPrivs {status['NoNewPrivs']}")
    check(status["Seccomp"] == "2", f"Seccomp {status['Seccomp']} (2: a filter)")
    status_code, doctor = await m.run("sudo", "-u", "aquavate", "aquavate-bridge", "doctor", "--service")
    failing = [line for line in doctor.splitlines() if line.startswith("FAIL")]
    check(not failing, f"doctor --service: {failing}")
    check(status_code == 0, f"doctor --service exited {status_code}: {doctor.strip()[-400:]}")
    check("D-Bus permission" in doctor, f"doctor --service has no D-Bus permission line: {doctor.strip()[-400:]}")
    out = await m.must("sudo", "-u", "aquavate", "aquavate-bridge", "status", "--config", CONFIG, "--db", HISTORY)
    check(out.strip(), "status printed nothing")
    return {"warnings": [line for line in doctor.splitlines() if line.startswith("warn")]}


async def remove_and_install(m):
    """`apt remove` keeps the settings and the history; `apt install` again finds them."""
    records = len(m.stored())
    await m.apt("remove")
    check(not await m.active(), f"{UNIT} still active after apt remove")
    check(not os.path.exists("/usr/bin/aquavate-bridge"), "apt remove left /usr/bin/aquavate-bridge")
    check(m.setting("daily_goal_ml") == "2300" and m.setting("bottle.address") == BOTTLE,
          f"apt remove lost the settings: daily_goal_ml {m.setting('daily_goal_ml')}, bottle.address {m.setting('bottle.address')}")
    check(len(m.stored()) == records, f"apt remove changed the history: {len(m.stored())} records, not {records}")
    m.add_drinks(15)
    await m.apt("install", m.current[0])
    await m.wait_active("installed again")
    check(m.setting("daily_goal_ml") == "2300", f"the reinstall lost daily_goal_ml: {m.setting('daily_goal_ml')}")
    return {"records": await m.synced("after apt remove and apt install")}


async def purge(m):
    """`apt purge` removes the settings, keeps the drink history and the user (docs/raspberry-pi.md 9)."""
    records = len(m.stored())
    await m.apt("purge")
    check(not os.path.exists(CONFIG), f"apt purge left {CONFIG}")
    check(not os.path.exists("/etc/aquavate"), "apt purge left /etc/aquavate")
    check(len(m.stored()) == records, f"apt purge changed the history: {len(m.stored())} records, not {records}")
    pwd.getpwnam("aquavate")                       # KeyError (a failure) if the user went
    _, state = await m.run("systemctl", "is-enabled", UNIT)
    check(state.strip() not in ("enabled", "masked"), f"{UNIT} is still {state.strip()} after apt purge")
    return {"records": records}


async def upgrade(m):
    """The previous .deb installed and set up, then the current one over it: history and settings
    kept, the service restarted on the new binary."""
    check(m.earlier, "no package in /aquavate/packages/earlier")
    await m.apt("install", m.earlier[0])
    await m.wait_active("the earlier package")
    await m.must("aquavate-bridge", "setup", "--yes", "--config", CONFIG, "--bottle", BOTTLE, "--goal", "2400")
    m.add_drinks(10)
    await m.must("systemctl", "restart", UNIT)
    await m.wait_active("the earlier package, set up")
    await m.synced("under the earlier package")
    before = int(await m.property("MainPID"))
    records = len(m.stored())
    m.add_drinks(10)
    await m.apt("install", m.current[0])
    after = await m.wait_active("upgraded")
    check(after != before, "the upgrade did not restart the service")
    _, version = await m.run("dpkg-query", "-W", "-f", "${Version}", UNIT)
    expected = os.path.basename(m.current[0]).split("_")[1]
    check(version.strip() == expected, f"installed version {version.strip()}, not {expected}")
    # A package from before the daily goal's own name wrote it as goal_ml (the repacked one of
    # this build writes daily_goal_ml); the new binary reads either as daily_goal_ml.
    written = m.setting("daily_goal_ml") or m.setting("goal_ml")
    check(written == "2400" and m.setting("bottle.address") == BOTTLE,
          f"the upgrade lost the settings: daily goal {written}, bottle.address {m.setting('bottle.address')}")
    goal = await m.must("sudo", "-u", "aquavate", "aquavate-bridge", "config", "get", "daily_goal_ml", "--config", CONFIG, "--db", HISTORY)
    check(goal.strip().splitlines()[-1:] == ["2400"], f"the new binary reads the daily goal as {goal.strip()!r}, not 2400")
    check(len(m.stored()) >= records, "the upgrade lost history")
    return {"from": os.path.basename(m.earlier[0]).split("_")[1], "to": expected,
            "records": await m.synced("after the upgrade")}


async def journal_clean(m):
    """From the first installation on: no error of ours or of bluetoothd but the one bluetoothd logs
    for each link the bridge ended; no refused call; no libdispatch complaint about thread
    priorities, the service's or a command's; no watchdog."""
    # The sessions the bridge ended: bluetoothd's MGMT Disconnect reached the bottle as 0x13. Each
    # gives exactly one such line, once journald has it (the last session may end just now).
    ended = [e for e in m.bottle.events if e["event"] == "disconnect" and e.get("reason") == REMOTE_USER_TERMINATED]
    errors, allowed = [], []

    async def every_ended_session_logged():
        nonlocal errors, allowed
        errors = await m.journal("-p", "err", "-u", UNIT, "-u", "bluetooth", "--after-cursor", m.install_cursor)
        allowed = [line for line in errors if ALLOWED_BLUETOOTHD_ERROR in line and "bluetoothd[" in line]
        return len(allowed) >= len(ended)
    try:
        await m.wait_for(every_ended_session_logged, 30, "bluetoothd's line for each session the bridge ended")
    except Failed:
        pass
    other = [line for line in errors if line not in allowed]
    check(not other, f"{len(other)} error lines in the journal: {other[:3]}")
    check(len(allowed) == len(ended),
          f"{len(allowed)} '{ALLOWED_BLUETOOTHD_ERROR}' lines for {len(ended)} sessions the bridge ended")
    everything = await m.journal("--after-cursor", m.install_cursor)
    service = await m.journal("-u", UNIT, "--after-cursor", m.install_cursor)
    # The service's starts (LimitNICE= gives libdispatch's threads their nice values) and the
    # commands a person runs as aquavate (`sudo -u aquavate aquavate-bridge doctor --service`,
    # where libdispatch's complaint is kept out of syslog).
    priority = [line for line in everything if "Failed to set thread priority" in line]
    check(not priority, f"{len(priority)} thread-priority complaints: {priority[:2]}")
    watchdog = [line for line in everything if UNIT in line and "atchdog timeout" in line]
    check(not watchdog, f"the watchdog fired: {watchdog[:2]}")
    ours = [line for line in everything if "aquavate-bridge[" in line]
    refused = [line for line in ours if "AccessDenied" in line]
    check(not refused, f"refused calls: {refused[:2]}")
    sessions = [e for e in m.bottle.events if e["event"] == "connect"]
    starts = [line for line in everything if "Started aquavate-bridge.service" in line]
    return {"bluetoothd_disconnect_lines": len(allowed), "sessions_the_bridge_ended": len(ended),
            "sessions": len(sessions), "service_starts": len(starts), "service_lines": len(service)}


STEPS = [
    ("install", "`apt install ./aquavate-bridge_*.deb` offline: the system user aquavate, the service enabled "
                "and started, the settings file root:aquavate 0640", install),
    ("first-start", "the service the package started syncs the bottle's 120-record backlog at once; the system "
                    "bus never refused it (BlueZ's blanket policy removed)", first_start),
    ("setup", "`setup --yes` keeps the settings file's owner and mode; `systemctl restart`; the next sync, "
              "nothing lost or twice", setup),
    ("service", "the service runs as aquavate with no capabilities, NoNewPrivs and a seccomp filter; "
                "`doctor --service` has no FAIL, `status` works", service),
    ("remove-install", "`apt remove` keeps settings and history, `apt install` again finds them and syncs",
     remove_and_install),
    ("purge", "`apt purge` removes the settings, keeps the history and the user aquavate", purge),
    ("upgrade", "the previous .deb set up and syncing, the current one installed over it: history and settings "
                "kept, the service restarted on the new version and syncing", upgrade),
    ("journal", "from the first installation on, no error line of ours or of bluetoothd but 'No matching "
                "connection for device' (exactly once per session the bridge ended), no refused call, no 'Failed to set "
                "thread priority' (the service's or a command's), no watchdog",
     journal_clean),
]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", default="/results")
    parser.add_argument("--packages", default="/aquavate/packages")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("bumble").setLevel(logging.WARNING)
    m = Machine(args.results, args.packages)
    report = {"steps": []}
    try:
        started = time.monotonic()
        await m.start_radio()
        report["stack_ready_s"] = round(time.monotonic() - started, 1)
        for name, what, step in STEPS:
            entry = await timed_entry(name, what, lambda: step(m))
            report["steps"].append(entry)
            log.info("%s: %s (%.1f s)", name, "passed" if entry["passed"] else f"FAILED: {entry['failure']}",
                     entry["seconds"])
            with open(f"{args.results}/package.json", "w") as out:
                json.dump(report, out, indent=1)
            if not entry["passed"]:
                break
    except Exception:
        report["error"] = traceback.format_exc()
    finally:
        _, journal = await m.run("journalctl", "-b", "--no-pager", "-o", "short-monotonic")
        with open(f"{args.results}/journal.txt", "w") as out:
            out.write(journal)
        if m.bottle is not None:
            with open(f"{args.results}/package.events.json", "w") as out:
                json.dump(m.bottle.events, out)
        with open(f"{args.results}/package.json", "w") as out:
            json.dump(report, out, indent=1)
    passed = "error" not in report and len(report["steps"]) == len(STEPS) and all(s["passed"] for s in report["steps"])
    with open(f"{args.results}/exit-status", "w") as out:
        out.write("0\n" if passed else "1\n")
    os.sync()
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
