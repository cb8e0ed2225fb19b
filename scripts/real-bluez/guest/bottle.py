# The Aquavate bottle on the air: a Bumble GATT peripheral written from docs/protocol.md (section
# numbers below are that document's), behaving as firmware 0.1.0 does, its documented defects
# (Appendix B) included where a client meets them. It is driven by scenarios.py through `Options`
# and a few hooks (a link dropped after chunk k, a bottle that refuses a larger MTU, ...).
import asyncio
import dataclasses
import logging
import struct
import time

from bumble import hci
from bumble.core import AdvertisingData, UUID
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service

log = logging.getLogger("bottle")

SERVICE = "6F75616B-7661-7465-2D00-000000000000"


def characteristic_uuid(n):
    return SERVICE[:-1] + str(n)


# Sync Control commands and statuses (3.3), Command codes (3.6).
QUERY, START, ACK = 0, 1, 2
IDLE, IN_PROGRESS = 0, 1
SET_TIME, DELETE_DRINK_RECORD, CAL_SET_DATA, SET_DAILY_TOTAL = 0x10, 0x12, 0x04, 0x11
TARE_NOW, PING, CAL_MEASURE_POINT, RESET_DAILY, CLEAR_HISTORY = 0x01, 0x02, 0x03, 0x05, 0x06
START_CALIBRATION, CANCEL_CALIBRATION = 0x20, 0x21
GET_ACTIVITY_SUMMARY, GET_MOTION_CHUNK, GET_BACKPACK_CHUNK = 0x30, 0x31, 0x32
SYNCED, DELETED = 0x01, 0x04
CAPACITY_ML = 830


@dataclasses.dataclass
class Options:
    """What a scenario can change. The defaults are the firmware as docs/protocol.md describes it."""
    name: str = "Aquavate-A3F2"
    address: str = "F4:12:FA:00:A3:F6"           # public, the Wi-Fi MAC + 2 (1.1)
    serial: str = "F4:12:FA:00:A3:F4"            # the Wi-Fi station MAC (2.1)
    max_mtu: int = 247                           # 1.5; 23 refuses any exchange above the default
    advertise_service: bool = True               # a stranger with the bottle's name leaves it out
    drop_after_chunk: int | None = None          # the bottle goes out of range once chunk k is sent
    nul_terminated_strings: bool = False         # B17: Device Information strings with their NUL
    calibrated: bool = True
    scale: float = 400.0
    empty_adc: int = 120_000
    goal_ml: int = 2500
    battery: int = 87
    calibration_step_s: float = 0.3              # how long the person takes for each step (6.5 A)


@dataclasses.dataclass
class Record:
    record_id: int
    timestamp: int
    amount_ml: int
    level_ml: int
    flags: int = 0

    def wire(self):
        kind = 1 if self.amount_ml >= 100 else 0
        # 3.4: flags on the air are always 0 for what a sync sends (B2's filter runs before).
        return struct.pack("<IIhHBB", self.record_id, self.timestamp, self.amount_ml,
                           self.level_ml & 0xFFFF, kind, 0)


class Bottle:
    """The firmware's state and its GATT database."""

    def __init__(self, options: Options):
        self.o = options
        self.records: list[Record] = []
        self.next_id = 1
        self.goal_ml = options.goal_ml
        self.shake_to_empty = 0
        self.settings_echo = b"\x00\x00\x00"
        self.time_valid = False
        self.clock_offset = 0                    # seconds between SET_TIME and the host clock
        self.water_ml = 400
        self.calibrated = options.calibrated
        self.scale = options.scale
        self.empty_adc = options.empty_adc
        self.calibration_mode = False
        # The sync engine (4.3): survives a disconnect (B4).
        self.status = IDLE
        self.loaded: list[Record] = []
        self.chunk_size = 20
        self.chunk = 0
        self.last_chunk = bytes(6)
        # What scenarios check.
        self.events: list[dict] = []
        self.ack_hook = None                     # called with (chunk index, records) before each ACK moves on
        self.connection = None
        self.device: Device | None = None
        self._calibration_task = None

    # -- records -----------------------------------------------------------------------------
    def add_drinks(self, count, start=None, spacing=60):
        start = start if start is not None else int(time.time()) - count * spacing - 120
        for i in range(count):
            amount = 30 + (i * 37) % 300
            self.water_ml = max(0, self.water_ml - amount) if self.water_ml > amount else CAPACITY_ML
            self.records.append(Record(self.next_id, start + i * spacing, amount, self.water_ml))
            self.next_id += 1
        del self.records[:-600]                  # the ring keeps 600 (4.1)

    def unsynced(self):
        return sum(1 for r in self.records if not r.flags & SYNCED)

    def daily_total(self):
        midnight = int(time.time()) // 86400 * 86400
        return sum(r.amount_ml for r in self.records
                   if r.timestamp >= midnight and not r.flags & DELETED) & 0xFFFF

    # -- values ------------------------------------------------------------------------------
    def current_state(self):
        flags = (0x01 if self.time_valid else 0) | (0x02 if self.calibrated else 0) | 0x04
        level = min(max(self.water_ml, 0), CAPACITY_ML)
        return struct.pack("<IhHHBBH", int(time.time()) + self.clock_offset, self.water_ml, level,
                           self.daily_total(), self.o.battery, flags, self.unsynced())

    def bottle_config(self):
        if not self.calibrated:
            return struct.pack("<fiHH", 1.0, 0, CAPACITY_ML, 2500)
        return struct.pack("<fiHH", self.scale, int(self.empty_adc / self.scale), CAPACITY_ML, self.goal_ml)

    def sync_control(self):
        return struct.pack("<HHBBH", 0, self.unsynced(), 0, self.status, self.chunk_size)

    def device_settings(self):
        return bytes([self.shake_to_empty]) + self.settings_echo

    def info_string(self, text):
        return text.encode() + (b"\x00" if self.o.nul_terminated_strings else b"")

    # -- notifications -----------------------------------------------------------------------
    async def notify(self, characteristic, value):
        # A notifying characteristic keeps what it notified (2.2); one read through a function
        # (Current State, Drink Data) already computes the same value.
        if not isinstance(characteristic.value, CharacteristicValue):
            characteristic.value = value
        if self.connection is not None:
            await self.device.notify_subscribers(characteristic, value)

    def record(self, kind, **fields):
        fields["event"] = kind
        fields["t"] = round(time.time(), 3)
        self.events.append(fields)
        log.info("%s", fields)

    # -- writes ------------------------------------------------------------------------------
    async def write_sync_control(self, connection, value):
        self.record("sync-control", value=value.hex())
        if len(value) != 8:
            return                                # 3.3: only 8-byte writes are acted on
        _, count, command, _, chunk_size = struct.unpack("<HHBBH", value)
        if command == QUERY:
            self.status = IDLE
        elif command == START:
            sync_set = [r for r in self.records if not r.flags & (SYNCED | DELETED)]
            self.loaded = sync_set[:count]
            self.chunk_size = chunk_size if 1 <= chunk_size <= 20 else 20
            self.chunk = 0
            self.status = IN_PROGRESS
            if self.loaded:
                await self.send_chunk()
        elif command == ACK and self.status == IN_PROGRESS:
            if self.ack_hook is not None:
                self.ack_hook(self.chunk, self.chunk_records(self.chunk))
            self.chunk += 1
            if self.chunk < self.total_chunks():
                await self.send_chunk()
            else:
                self.finish_sync()
                await self.notify(self.current_state_char, self.current_state())

    def total_chunks(self):
        return -(-len(self.loaded) // self.chunk_size)

    def chunk_records(self, k):
        return self.loaded[k * self.chunk_size:(k + 1) * self.chunk_size]

    async def send_chunk(self):
        records = self.chunk_records(self.chunk)
        value = struct.pack("<HHBB", self.chunk, self.total_chunks(), len(records), 0) \
            + b"".join(r.wire() for r in records)
        self.last_chunk = value
        self.record("chunk", index=self.chunk, total=self.total_chunks(), records=len(records),
                    first=records[0].record_id, bytes=len(value))
        await self.notify(self.drink_data_char, value)
        if self.o.drop_after_chunk is not None and self.chunk == self.o.drop_after_chunk:
            self.o.drop_after_chunk = None        # once: the next connection finds the bottle back
            self.record("drop", after_chunk=self.chunk)
            asyncio.get_running_loop().create_task(self.drop_link())

    def finish_sync(self):
        # 4.3: the first R records with the synced bit clear, deleted ones included (B2).
        marked = 0
        for r in self.records:
            if marked == len(self.loaded):
                break
            if not r.flags & SYNCED:
                r.flags |= SYNCED
                marked += 1
        self.status = IDLE
        self.record("sync-complete", marked=marked, unsynced=self.unsynced())

    async def drop_link(self):
        connection = self.connection
        if connection is not None:
            await connection.disconnect(hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR)

    async def write_command(self, connection, value):
        self.record("command", value=value.hex())
        n = len(value)
        if n == 5 and value[0] == SET_TIME:
            (t,) = struct.unpack("<I", value[1:])
            self.clock_offset = t - int(time.time())
            self.time_valid = True
        elif n == 5 and value[0] == DELETE_DRINK_RECORD:
            (record_id,) = struct.unpack("<I", value[1:])
            for r in self.records:
                if r.record_id == record_id:
                    r.flags |= DELETED
            await self.notify(self.current_state_char, self.current_state())   # found or not (6.3)
        elif n == 13 and value[0] == CAL_SET_DATA:
            empty, full, scale = struct.unpack("<iif", value[1:])
            if scale > 0 and full > empty:
                self.calibrated, self.scale, self.empty_adc = True, scale, empty
                self.calibration_mode = False
                await self.notify(self.current_state_char, self.current_state())
        elif n == 4:
            code, param = value[0], value[1]
            if code == TARE_NOW and self.calibrated:
                self.record("tare", water_ml=self.water_ml)
                self.water_ml = 0
            elif code == RESET_DAILY:
                midnight = int(time.time()) // 86400 * 86400
                for r in self.records:
                    if r.timestamp >= midnight:
                        r.flags |= DELETED
            elif code == CLEAR_HISTORY:
                self.records, self.next_id = [], 1
            elif code == START_CALIBRATION and self._calibration_task is None:
                self.calibration_mode = True
                self._calibration_task = asyncio.get_running_loop().create_task(self.calibrate())
            elif code == CANCEL_CALIBRATION and self._calibration_task is not None:
                self._calibration_task.cancel()
                self._calibration_task = None
                await self.notify(self.calibration_char, bytes(12))
            elif code == GET_ACTIVITY_SUMMARY:
                await self.notify(self.activity_char, struct.pack("<BBBBIHH", 0, 0, 0, 1, 0, 0, 0))
            elif code in (GET_MOTION_CHUNK, GET_BACKPACK_CHUNK) and param == 0:
                await self.notify(self.activity_char, bytes([0, 1, 0, 0]))   # 3.8.3: nothing stored

    async def calibrate(self):
        """6.5 A: the bottle-driven calibration, the person following the display at once."""
        full_adc = self.empty_adc + int(CAPACITY_ML * self.scale)
        try:
            for state in (1, 2, 3, 4, 6, 7):
                await self.notify(self.calibration_char, bytes([state]) + bytes(11))
                await asyncio.sleep(self.o.calibration_step_s)
            self.calibrated = True
            await self.notify(self.calibration_char,
                              struct.pack("<BBiiH", 9, 0, self.empty_adc, full_adc, 0))
            self.record("calibrated", empty=self.empty_adc, full=full_adc)
        finally:
            self._calibration_task = None

    def write_bottle_config(self, connection, value):
        self.record("bottle-config", value=value.hex())
        if len(value) != 12:
            return
        scale, tare, _, goal = struct.unpack("<fiHH", value)
        if not 100.0 <= scale <= 800.0:
            return                                # 3.2.1: the whole write is rejected
        self.goal_ml = min(max(goal, 1000), 4000)
        if self.calibrated:
            self.empty_adc, self.scale = int(tare * scale), scale

    def write_device_settings(self, connection, value):
        self.record("device-settings", value=value.hex())
        if len(value) == 4:
            self.shake_to_empty = value[0] & 0x01
            self.settings_echo = bytes(value[1:])

    # -- the GATT database and the radio -----------------------------------------------------
    def services(self):
        def readable(uuid, read, notify=False):
            props = Characteristic.Properties.READ | (Characteristic.Properties.NOTIFY if notify else 0)
            return Characteristic(uuid, props, Characteristic.READABLE, CharacteristicValue(read=read))

        def writable(uuid, write, read=None):
            props = Characteristic.Properties.WRITE | (Characteristic.Properties.READ if read else 0)
            perms = Characteristic.WRITEABLE | (Characteristic.READABLE if read else 0)
            return Characteristic(uuid, props, perms, CharacteristicValue(read=read, write=write))

        self.current_state_char = readable(characteristic_uuid(1), lambda c: self.current_state(), notify=True)
        self.drink_data_char = readable(characteristic_uuid(4), lambda c: self.last_chunk, notify=True)
        self.activity_char = Characteristic(characteristic_uuid(7), Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
                                            Characteristic.READABLE, bytes(12))
        self.calibration_char = Characteristic(characteristic_uuid(8), Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
                                               Characteristic.READABLE, bytes(12))
        self.battery_char = Characteristic("2A19", Characteristic.Properties.READ | Characteristic.Properties.NOTIFY,
                                           Characteristic.READABLE, bytes([self.o.battery]))
        aquavate = Service(SERVICE, [
            self.current_state_char,
            writable(characteristic_uuid(2), self.write_bottle_config, lambda c: self.bottle_config()),
            writable(characteristic_uuid(3), self.write_sync_control, lambda c: self.sync_control()),
            self.drink_data_char,
            writable(characteristic_uuid(5), self.write_command),
            writable(characteristic_uuid(6), self.write_device_settings, lambda c: self.device_settings()),
            self.activity_char,
            self.calibration_char,
        ])
        info = Service("180A", [
            Characteristic("2A29", Characteristic.Properties.READ, Characteristic.READABLE, self.info_string("Aquavate")),
            Characteristic("2A24", Characteristic.Properties.READ, Characteristic.READABLE, self.info_string("Puck v1.0")),
            Characteristic("2A26", Characteristic.Properties.READ, Characteristic.READABLE, self.info_string("0.1.0")),
            Characteristic("2A25", Characteristic.Properties.READ, Characteristic.READABLE, self.info_string(self.o.serial)),
        ])
        battery = Service("180F", [self.battery_char])
        return [aquavate, info, battery] if self.o.advertise_service else [info]

    def advertising_data(self):
        """1.2: flags, the 128-bit service UUID (complete list), Battery 0x180F; the name only in
        the scan response."""
        elements = [(AdvertisingData.FLAGS, bytes([0x06]))]
        if self.o.advertise_service:
            elements += [(AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
                         (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, struct.pack("<H", 0x180F))]
        return bytes(AdvertisingData(elements)), bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, self.o.name.encode())]))

    async def power_on(self, controller):
        self.device = Device.with_hci(self.o.name, hci.Address(self.o.address), controller, controller)
        self.device.gatt_server.max_mtu = self.o.max_mtu
        self.device.add_services(self.services())
        self.device.on("connection", self.on_connection)
        await self.device.power_on()
        await self.advertise()

    async def advertise(self):
        advertising, scan_response = self.advertising_data()
        await self.device.start_advertising(
            own_address_type=hci.OwnAddressType.PUBLIC, advertising_data=advertising,
            scan_response_data=scan_response, advertising_interval_min=1000, advertising_interval_max=1000)

    def on_connection(self, connection):
        self.connection = connection
        self.record("connect", peer=str(connection.peer_address))
        connection.on("disconnection", lambda reason: self.on_disconnection(connection, reason))
        connection.on("connection_att_mtu_update", lambda: self.record("mtu", mtu=connection.att_mtu))

    def on_disconnection(self, connection, reason):
        self.connection = None
        self.calibration_mode = False            # B12: only a disconnect (or CAL_SET_DATA) ends it
        self.record("disconnect", reason=int(reason))
        # 1.3: advertising resumes when the central goes away.
        asyncio.get_running_loop().create_task(self.advertise())
