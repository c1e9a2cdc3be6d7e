import Testing
@testable import StorefrontCore
@testable import StorefrontKit

@Suite("HMAC-SHA256")
struct HMACSHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesFIPSExamples() {
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 1: 20 bytes of 0x0b, "Hi There".
        let one = HMACSHA256(key: [UInt8](repeating: 0x0b, count: 20)).tag(Array("Hi There".utf8))
        #expect(Self.hex(one) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Test case 2: key "Jefe".
        let two = HMACSHA256(key: Array("Jefe".utf8)).tag(Array("what do ya want for nothing?".utf8))
        #expect(Self.hex(two) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a 131-byte key (hashed first).
        let six = HMACSHA256(key: [UInt8](repeating: 0xaa, count: 131))
            .tag(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(Self.hex(six) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func verifyRefusesAnyChangedByte() {
        let mac = HMACSHA256(key: Array("key".utf8))
        let message = Array("payload".utf8)
        let tag = mac.tag(message)
        #expect(mac.verify(tag, for: message))
        for index in tag.indices {
            var changed = tag
            changed[index] ^= 1
            #expect(!mac.verify(changed, for: message))
        }
        #expect(!mac.verify(Array(tag.dropLast()), for: message))
        #expect(!mac.verify(tag, for: Array("payloaD".utf8)))
    }
}
