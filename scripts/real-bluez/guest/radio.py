# The virtual radio: Bluetooth controllers emulated by Google's Bumble on one LE link, the
# first attached to the Linux kernel through /dev/vhci (it becomes hci0, driven by the real
# bluetoothd), the others driven by Bumble hosts that play bottles and strangers.
#
# Bumble's controller emulation differs from a real controller in three ways that make the real
# stack fail for reasons that are not the bridge's, in a fourth that makes bluetoothd see a
# disconnect the bridge asked for as one the bottle made, and in a fifth that leaves a link to a
# device taken off the air up for ever. Each override below restores what a
# real controller does; none of them changes what the bridge is offered beyond that.
import asyncio
import logging

from bumble import hci, ll
from bumble.controller import Connection, Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink

log = logging.getLogger("radio")


class FaithfulLink(LocalLink):
    """Gap 1. LE ACL data carries the link's own addresses.

    Bumble's LocalLink hands a central's ACL data to the peripheral under the sender's *random*
    address, while the kernel connected with its *public* one: the peripheral's controller finds
    no connection for that address and drops every ATT request (the MTU exchange times out,
    bluetoothd resolves services only at its 30 s time-out, with no characteristics). On a real
    link the data belongs to the connection, whose addresses are the ones the connection was
    made with."""

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        if transport != PhysicalTransport.LE:
            return super().send_acl_data(sender_controller, destination_address, transport, data)
        connection = next((c for c in sender_controller.le_connections.values()
                           if c.peer_address == destination_address), None)
        source_address = connection.self_address if connection else sender_controller.random_address
        destination = self.find_le_controller(destination_address)
        if destination is not None:
            asyncio.get_running_loop().call_soon(
                lambda: destination.on_link_acl_data(source_address, transport, data))


    def remove_controller(self, controller):
        """Gap 5. A device taken off the air ends its links by the supervision time-out.

        Bumble's LocalLink only forgets the controller: the peers keep their connections to it
        for ever, the kernel goes on showing bluetoothd a connected device, and a later
        scenario's bridge finds that device "still connected from an earlier run" and tries it
        in vain. On a real radio the peer hears nothing more, and its controller reports
        Disconnection Complete with reason 0x08 (Connection Timeout) once the link's supervision
        time-out has passed."""
        gone = {address.address_bytes for address in (controller.public_address, controller.random_address)}
        controller.off_the_air = True
        super().remove_controller(controller)
        for peer in self.controllers:
            for connection in list(peer.le_connections.values()):
                if connection.peer_address.address_bytes in gone:
                    log.info("%s left the air: %s's link to it times out", controller.name, peer.name)
                    peer.on_le_disconnected(connection, hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR)


    def send_advertising_pdu(self, sender_controller, packet):
        """Gap 5 too: a device taken off the air is heard by no one. Bumble's controller keeps
        sending its host's advertisements to the link it was removed from, the kernel connects to
        it again, and bluetoothd shows a bottle connected that is not there."""
        if not getattr(sender_controller, "off_the_air", False):
            super().send_advertising_pdu(sender_controller, packet)


def _advertiser_of(link, address):
    """The enabled advertiser (legacy or set) that sends PDUs from `address` on the link."""
    for controller in link.controllers:
        legacy = controller.le_legacy_advertiser
        if legacy.enabled and legacy.address == address:
            return legacy.scan_response_data
        for advertising_set in controller.advertising_sets.values():
            if advertising_set.enabled and advertising_set.address == address:
                return bytes(advertising_set.scan_response_data)
    return None


class FaithfulController(Controller):
    """A Bumble controller with gaps 2 and 3 closed (gap 1 is the link's)."""

    # LE event mask bit of LE Enhanced Connection Complete (subevent 0x0A) and of its v2 (0x29).
    ENHANCED_CONNECTION_COMPLETE = 1 << (0x0A - 1)

    def on_advertising_pdu(self, pdu):
        """Gap 2. Advertising reports as a Bluetooth 5 controller sends them.

        Bumble reports a legacy advertisement without the legacy-PDU bit and as not scannable,
        and echoes the advertising data as the scan response, so the kernel never merges
        advertisement and scan response; under bluetoothd's UUID-filtered discovery the bottle's
        name (only in its scan response, docs/protocol.md 1.2) is then lost. A real controller
        scanning actively reports the ADV_IND with the legacy bit set, then the SCAN_RSP carrying
        the advertiser's real scan-response data."""
        if isinstance(pdu, ll.AdvExtInd) and pdu.periodic_advertising_data is not None:
            return super().on_advertising_pdu(pdu)
        if self.le_scan_enable:
            scan_response = _advertiser_of(self.link, pdu.advertiser_address)
            if self.le_features & hci.LeFeatureMask.LE_EXTENDED_ADVERTISING:
                kind = hci.HCI_LE_Extended_Advertising_Report_Event.EventType
                legacy_ind = kind.CONNECTABLE_ADVERTISING | kind.SCANNABLE_ADVERTISING | kind.LEGACY_ADVERTISING_PDU_USED
                reports = [(legacy_ind, pdu.data)]
                if scan_response is not None:
                    reports.append((legacy_ind | kind.SCAN_RESPONSE, scan_response))
                for event_type, data in reports:
                    self.send_hci_packet(hci.HCI_LE_Extended_Advertising_Report_Event([
                        hci.HCI_LE_Extended_Advertising_Report_Event.Report(
                            event_type=event_type, address_type=pdu.advertiser_address.address_type,
                            address=pdu.advertiser_address, primary_phy=hci.Phy.LE_1M,
                            secondary_phy=0, advertising_sid=0xFF, tx_power=0x7F, rssi=-50,
                            periodic_advertising_interval=0, direct_address_type=0,
                            direct_address=hci.Address.ANY, data=data)]))
            else:
                kind = hci.HCI_LE_Advertising_Report_Event.EventType
                reports = [(kind.ADV_IND, pdu.data)]
                if scan_response is not None:
                    reports.append((kind.SCAN_RSP, scan_response))
                for event_type, data in reports:
                    self.send_hci_packet(hci.HCI_LE_Advertising_Report_Event([
                        hci.HCI_LE_Advertising_Report_Event.Report(
                            event_type=event_type, address_type=pdu.advertiser_address.address_type,
                            address=pdu.advertiser_address, data=data, rssi=-50)]))
        pending = self.pending_le_connection
        if pending and pending.peer_address == pdu.advertiser_address:
            self.create_le_connection(pdu.advertiser_address)

    def create_le_connection(self, peer_address):
        """Gap 3, first half. The connection event the host enabled.

        Linux 6.1 enables LE Enhanced Connection Complete and waits for it; Bumble sends the old
        LE Connection Complete, so about 4 s later the kernel gives up on the connect and cancels
        it. A real controller sends the event the host enabled in its LE event mask."""
        pending = self.pending_le_connection
        if self.le_connections.get(peer_address):
            log.error("connection to %s exists already", peer_address)
            return
        self_address = (self.public_address if pending.own_address_type == hci.OwnAddressType.PUBLIC
                        else self.random_address)
        peer_address = pending.peer_address
        connection = Connection(
            controller=self, handle=self.allocate_connection_handle(), role=hci.Role.CENTRAL,
            self_address=self_address, peer_address=peer_address, link=self.link,
            transport=PhysicalTransport.LE, link_type=hci.HCI_Connection_Complete_Event.LinkType.ACL)
        self.le_connections[peer_address] = connection
        if isinstance(pending, hci.HCI_LE_Extended_Create_Connection_Command):
            interval = pending.connection_interval_mins[0]
            latency = pending.max_latencies[0]
            timeout = pending.supervision_timeouts[0]
        else:
            interval = pending.connection_interval_min
            latency = pending.max_latency
            timeout = pending.supervision_timeout
        self.send_advertising_pdu(ll.ConnectInd(
            initiator_address=self_address, advertiser_address=peer_address,
            interval=interval, latency=latency, timeout=timeout))
        self.pending_le_connection = None
        self._connection_complete(hci.HCI_ErrorCode.SUCCESS, connection.handle, peer_address,
                                  interval, latency, timeout)

    def _connection_complete(self, status, handle, peer_address, interval, latency, timeout):
        fields = dict(status=status, connection_handle=handle, role=hci.Role.CENTRAL,
                      peer_address_type=peer_address.address_type, peer_address=peer_address,
                      connection_interval=interval, peripheral_latency=latency,
                      supervision_timeout=timeout, central_clock_accuracy=0)
        if self.le_event_mask & self.ENHANCED_CONNECTION_COMPLETE:
            self.send_hci_packet(hci.HCI_LE_Enhanced_Connection_Complete_Event(
                local_resolvable_private_address=hci.Address.ANY_RANDOM,
                peer_resolvable_private_address=hci.Address.ANY_RANDOM, **fields))
        else:
            self.send_hci_packet(hci.HCI_LE_Connection_Complete_Event(**fields))

    def on_hci_le_create_connection_cancel_command(self, _command):
        """Gap 3, second half. Cancelling a connect that is not pending is refused.

        Bumble answers every LE Create Connection Cancel with success, pending or not; the kernel
        then believes the link it has is gone: a later Device1.Disconnect returns at once without
        an HCI Disconnect, the link stays up and the peripheral never advertises again. A real
        controller answers Command Disallowed when nothing is pending, and otherwise cancels the
        connect and reports it with a connection-complete event of status Unknown Connection
        Identifier."""
        pending = self.pending_le_connection
        if pending is None:
            return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
        self.pending_le_connection = None
        asyncio.get_running_loop().call_soon(
            self._connection_complete, hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR, 0,
            pending.peer_address, 0, 0, 0)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def on_hci_disconnect_command(self, command):
        """Gap 4. A disconnect the host asked for completes as terminated by the local host.

        Bumble reports the Disconnection Complete of an LE link its own host ended with the
        reason the host gave (0x13, Remote User Terminated), as if the peer had ended it, and the
        kernel passes that on to bluetoothd as a remote disconnect. A real controller sends the
        peer the reason given and reports 0x16, Connection Terminated By Local Host, to its host."""
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None or not self.link:
            return super().on_hci_disconnect_command(command)
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        connection.send_ll_control_pdu(ll.TerminateInd(command.reason))
        self.on_le_disconnected(connection, hci.HCI_ErrorCode.CONNECTION_TERMINATED_BY_LOCAL_HOST_ERROR)
        return None
