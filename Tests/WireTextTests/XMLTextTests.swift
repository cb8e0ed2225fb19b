// XMLText, the one escaper of XML and HTML (D-Bus introspection, the web page and its charts):
// the five markup characters become entities, everything else is kept as it is.

import Testing
import WireText

@Suite struct XMLTextTests {
    @Test func theFiveMarkupCharactersBecomeEntities() {
        #expect(XMLText.escaped(#"<a href="x">Tom & Anna's</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Anna&#39;s&lt;/a&gt;")
    }

    @Test func otherTextIsKept() {
        #expect(XMLText.escaped("org.bluez.GattCharacteristic1 💧 é ; #39") == "org.bluez.GattCharacteristic1 💧 é ; #39")
        #expect(XMLText.escaped("") == "")
    }

    @Test func anEntityIsEscapedAgainNotTrusted() {
        #expect(XMLText.escaped("&amp;") == "&amp;amp;")
    }
}
