import AquavateProtocol

/// What the capture's own GATT discovery said about attribute handles: characteristic
/// declarations (Read By Type 0x2803 responses), service ranges (Read By Group Type) and
/// descriptors (Find Information). It decides whether a handle is a characteristic value,
/// which one, or a descriptor such as the CCCD.
struct GATTHandleTable {
    struct Declaration {
        let handle: UInt16
        let properties: UInt8
        let valueHandle: UInt16
        /// Lower-case 128-bit text.
        let uuid: String
    }

    private var declarations: [UInt16: Declaration] = [:]
    private var uuidByValueHandle: [UInt16: String] = [:]
    private var descriptors: Set<UInt16> = []
    private var serviceRanges: [ClosedRange<UInt16>] = []
    private var sortedDeclarationHandles: [UInt16] = []

    mutating func add(_ declaration: Declaration) {
        if let old = declarations[declaration.handle] { uuidByValueHandle[old.valueHandle] = nil }
        declarations[declaration.handle] = declaration
        uuidByValueHandle[declaration.valueHandle] = declaration.uuid
        sortedDeclarationHandles = declarations.keys.sorted()
    }

    mutating func addService(_ range: ClosedRange<UInt16>) {
        serviceRanges.append(range)
    }

    mutating func addDescriptor(_ handle: UInt16) {
        descriptors.insert(handle)
    }

    /// The UUID of the characteristic whose value lives at `handle`.
    func characteristicUUID(valueHandle handle: UInt16) -> String? {
        uuidByValueHandle[handle]
    }

    /// Value handles discovered for `characteristic`.
    func valueHandles(of characteristic: Characteristic) -> [UInt16] {
        uuidByValueHandle.filter { $0.value == characteristic.uuid }.map(\.key)
    }

    /// True for handles that belong to a characteristic but are not its value: descriptors
    /// (CCCD, user description) and declarations themselves.
    func isDescriptor(_ handle: UInt16) -> Bool {
        if descriptors.contains(handle) || declarations[handle] != nil { return true }
        guard uuidByValueHandle[handle] == nil else { return false }
        // The characteristic declared last before `handle`: descriptors follow its value,
        // up to the next declaration or the end of its service.
        guard let index = lastIndex(before: handle) else { return false }
        let declaration = declarations[sortedDeclarationHandles[index]]!
        guard handle > declaration.valueHandle else { return false }
        if index + 1 < sortedDeclarationHandles.count {
            return handle < sortedDeclarationHandles[index + 1]
        }
        return serviceRanges.contains { $0.contains(declaration.handle) && $0.contains(handle) }
    }

    private func lastIndex(before handle: UInt16) -> Int? {
        var low = 0
        var high = sortedDeclarationHandles.count
        while low < high {
            let middle = (low + high) / 2
            if sortedDeclarationHandles[middle] < handle { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
