// Every payload of the MQTT client's users (the Home Assistant publisher in Sinks, the household)
// is written and read by the one wire writer, `WireJSON`, with `@Nullable` for a documented null:
// they come with the client, so that a user of MQTT cannot reach for another writer.

@_exported import WireText
