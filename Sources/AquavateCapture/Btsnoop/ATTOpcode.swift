/// The ATT opcodes the importer follows (Core spec Vol 3 Part F 3.4; BlueZ
/// `src/shared/att-types.h`).
enum ATTOpcode {
    static let errorResponse: UInt8 = 0x01
    static let exchangeMTURequest: UInt8 = 0x02
    static let exchangeMTUResponse: UInt8 = 0x03
    static let findInformationRequest: UInt8 = 0x04
    static let findInformationResponse: UInt8 = 0x05
    static let readByTypeRequest: UInt8 = 0x08
    static let readByTypeResponse: UInt8 = 0x09
    static let readRequest: UInt8 = 0x0A
    static let readResponse: UInt8 = 0x0B
    static let readBlobRequest: UInt8 = 0x0C
    static let readBlobResponse: UInt8 = 0x0D
    static let readByGroupTypeRequest: UInt8 = 0x10
    static let readByGroupTypeResponse: UInt8 = 0x11
    static let writeRequest: UInt8 = 0x12
    static let handleValueNotification: UInt8 = 0x1B
    static let handleValueIndication: UInt8 = 0x1D
    static let multipleHandleValueNotification: UInt8 = 0x23
    static let writeCommand: UInt8 = 0x52

    /// Responses end the client's outstanding request (ATT allows one at a time).
    static let responses: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21]

    /// GATT attribute types (16-bit).
    static let characteristicDeclaration: UInt16 = 0x2803
    static let primaryService: UInt16 = 0x2800
    static let secondaryService: UInt16 = 0x2801
    static let deviceName: UInt16 = 0x2A00
    /// Descriptor UUIDs are 0x2900…0x29FF (CCCD is 0x2902).
    static let descriptorTypes: ClosedRange<UInt16> = 0x2900...0x29FF
}

/// The default ATT MTU when no exchange is seen.
let defaultATTMTU = 23
