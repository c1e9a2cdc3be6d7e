import Testing
import RecoTemplates

@Suite("Text template")
struct TextTemplateTests {
    @Test func titleNumberedProductsPricesAndLinks() throws {
        let text = try WidgetRenderer().render(try SampleWidgets.shoes(), template: "text")
        #expect(text == """
            Picked for you

            1. Trail Runner  800,00 TL → 600,00 TL (-25%)
               https://shop.example.com/p1
            2. Court Classic  1.299,90 €
               /p2
            3. Gift Card
               https://shop.example.com/gift

            """)
    }

    @Test func aPageOfTextBlocksIsSeparatedByABlankLine() throws {
        let one = try SampleWidgets.widget([#"{"productId":"a","name":"A","url":"//x.example/a"}"#], title: "One")
        let two = try SampleWidgets.widget([#"{"productId":"b","name":"B & C","price":5,"currency":"USD"}"#], title: "Two <3")
        let text = try WidgetRenderer().render([one, two], template: "text")
        #expect(text == "One\n\n1. A\n   https://x.example/a\n\nTwo <3\n\n1. B & C  $5.00\n")
    }
}
