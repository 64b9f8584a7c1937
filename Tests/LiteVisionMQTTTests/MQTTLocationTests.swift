import LiteVisionMQTT
import Testing

/// `mqtt://` and `mqtts://` locations: what they mean, and hostile ones refused with a specific reason that never
/// shows the password.
@Suite("MQTT locations")
struct MQTTLocationTests {
    @Test("a location's parts: TLS, host, default ports, percent-decoded credentials, topic prefix")
    func parts() throws {
        let plain = try MQTTLocation(parsing: "mqtt://broker/litevision")
        #expect(!plain.usesTLS && plain.host == "broker" && plain.port == 1883)
        #expect(plain.user == nil && plain.password == nil && plain.topicPrefix == "litevision")
        #expect(plain.masked == "mqtt://broker:1883/litevision")

        let secure = try MQTTLocation(parsing: "mqtts://tracker:p%40ss%3Aw%2Fd%25@broker.example.com/site/a/")
        #expect(secure.usesTLS && secure.port == 8883 && secure.host == "broker.example.com")
        #expect(secure.user == "tracker" && secure.password == "p@ss:w/d%" && secure.topicPrefix == "site/a")
        #expect(secure.masked == "mqtts://tracker:***@broker.example.com:8883/site/a")

        let address = try MQTTLocation(parsing: "MQTT://[::1]:1884/a%20b")
        #expect(address.host == "::1" && address.port == 1884 && address.topicPrefix == "a b")
        #expect(address.masked == "mqtt://[::1]:1884/a b")

        let userOnly = try MQTTLocation(parsing: "mqtt://us%40er@10.0.0.7:65535/x")
        #expect(userOnly.user == "us@er" && userOnly.password == nil && userOnly.port == 65535)
        #expect(userOnly.masked == "mqtt://us%40er@10.0.0.7:65535/x")
    }

    @Test("printing, debug-printing or dumping a location never shows its password")
    func passwordHidden() throws {
        let location = try MQTTLocation(parsing: "mqtt://tracker:Sup3rSecret@broker:1883/litevision")
        var dumped = ""
        dump(location, to: &dumped)
        for shown in ["\(location)", String(describing: location), String(reflecting: location), dumped] {
            #expect(!shown.contains("Sup3rSecret") && shown.contains("tracker:***@broker"), "\(shown)")
        }
    }

    @Test("hostile locations are refused with a specific reason, and the password is never in the message")
    func hostile() {
        let long = String(repeating: "p", count: 2000)
        let cases: [(location: String, reason: String, secret: String?)] = [
            ("", "it is empty", nil),
            ("http://user:Secret1@broker/x", "must start with mqtt:// or mqtts://", "Secret1"),
            ("user:Secret2@broker/x", "must start with mqtt:// or mqtts://", "Secret2"),
            ("mqtt://broker", "it has no topic prefix", nil),
            ("mqtt://broker/", "the topic prefix is empty", nil),
            ("mqtt:///x", "it has no host", nil),
            ("mqtt://broker:0/x", "the port is not a number from 1 to 65535", nil),
            ("mqtt://broker:65536/x", "the port is not a number from 1 to 65535", nil),
            ("mqtt://broker:12ab/x", "the port is not a number from 1 to 65535", nil),
            ("mqtt://broker:/x", "the port after ':' is empty", nil),
            ("mqtt://broker/x/+", "the wildcard '+'", nil),
            ("mqtt://broker/x/#", "the wildcard '#'", nil),
            ("mqtt://broker/x%23", "the wildcard '#'", nil),
            ("mqtt://broker/x\u{0}y", "the control character U+0000", nil),
            ("mqtt://broker/x%00", "the control character U+0000", nil),
            ("mqtt://broker/x\ny", "the control character U+000A", nil),
            ("mqtt://u:Sec\u{7F}ret3@broker/x", "the control character U+007F", "Sec\u{7F}ret3"),
            ("mqtt://bro ker/x", "it contains a space", nil),
            ("mqtt://bro!ker/x", "the host contains '!'", nil),
            ("mqtt://fe80::1/x", "an IPv6 address goes in brackets", nil),
            ("mqtt://[::1/x", "the IPv6 address has no ']'", nil),
            ("mqtt://[zz]/x", "is not an IPv6 address", nil),
            ("mqtt://[::1]x/x", "only ':PORT' may follow the IPv6 address", nil),
            ("mqtt://broker/$SYS/x", "topics starting with '$'", nil),
            ("mqtt://broker/a//b", "an empty level", nil),
            ("mqtt://broker/x?qos=1", "it has a query", nil),
            ("mqtt://broker/x%zz", "the topic prefix has a '%' not followed by two hexadecimal digits", nil),
            ("mqtt://broker/x%ff", "the topic prefix is not UTF-8 once percent-decoded", nil),
            (
                "mqtt://user:pa%zzSecret4@broker/x", "the password has a '%' not followed by two hexadecimal digits",
                "Secret4"
            ),
            ("mqtt://user:Se%00cret5@broker/x", "the password contains a control character", "cret5"),
            ("mqtt://us%0Aer:Secret6@broker/x", "the user name contains a control character", "Secret6"),
            ("mqtt://:Secret7@broker/x", "it has a password but no user name", "Secret7"),
            ("mqtt://@broker/x", "the user name before '@' is empty", nil),
            ("mqtt://user:\(long)@broker/x", "the password is longer than 1024 bytes", long),
            ("mqtt://user:Secret8@broker:99999/x", "the port is not a number from 1 to 65535", "Secret8"),
            ("mqtt://user:Sec/ret9@broker/x", "must be written %2F", "Sec"),
            ("mqtt://" + String(repeating: "h", count: 300) + "/x", "the host name is longer than 253 bytes", nil),
            ("mqtt://broker/" + String(repeating: "t", count: 600), "the topic prefix is longer than 511 bytes", nil),
            (String(repeating: "a", count: 5000), "it is longer than 4096 bytes", nil),
        ]
        for (location, reason, secret) in cases {
            do {
                let parsed = try MQTTLocation(parsing: location)
                Issue.record("accepted \(parsed.masked)")
            } catch {
                guard case .invalidLocation(let shown, let given) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(given.contains(reason), "\(location.prefix(80)): \(error)")
                #expect(shown.count <= 201, "\(shown)")
                if let secret {
                    #expect(!error.description.contains(secret), "the password is shown: \(error)")
                }
            }
        }
    }

    @Test("errors show a location with its password masked and its control characters escaped")
    func displayed() {
        #expect(MQTTLocation.displayed("mqtt://u:pw@h:1/x") == "mqtt://u:***@h:1/x")
        #expect(MQTTLocation.displayed("mqtt://u:p@w@h/x") == "mqtt://u:***@h/x")
        #expect(MQTTLocation.displayed("mqtt://h/a\u{1B}b") == "mqtt://h/aU+001Bb")
        #expect(MQTTLocation.displayed("https://u:pw@h/x") == "https://…")
        #expect(MQTTLocation.displayed("u:pw@h/x") == "(not shown: not an mqtt:// or mqtts:// URL)")
        #expect(MQTTLocation.displayed("mqtt://h/" + String(repeating: "x", count: 500)).count == 201)
    }
}
