import Testing
import RecoKit

@Suite("Filters on raw products")
struct ProductFilterTests {
    let shoe = try! RawProduct(JSONValue(parsing: """
        {"productId":"s1","brand":"ASICS","price":10,"inStock":true,"category":["Shoes","Sale"],
         "params":{"color":"Red","size":"42"},"sizeText":"10","noValue":null}
        """))

    @Test(arguments: [
        ("brand", ["asics"], true),
        ("brand", ["Nike", "ASICS"], true),
        ("brand", ["Nike"], false),
        ("brand", [" ASICS"], false),
        ("price", ["10"], true),
        ("price", ["10.0"], true),
        ("price", ["1e1"], true),
        ("price", ["ten"], false),
        ("sizeText", ["10.0"], false),
        ("sizeText", ["10"], true),
        ("inStock", ["TRUE"], true),
        ("inStock", ["false"], false),
        ("category", ["sale"], true),
        ("category", ["boots"], false),
        ("params.color", ["red"], true),
        ("params.size", ["42"], true),
        ("params", ["Red"], false),
        ("missing", ["x"], false),
        ("noValue", ["null"], false),
        ("brand", [], false),
    ] as [(String, [String], Bool)])
    func matching(name: String, values: [String], expected: Bool) {
        #expect(ProductFilter(name: name, values: values).matches(shoe) == expected)
    }

    @Test func everyFilterMustPass() {
        let both = [ProductFilter(name: "brand", values: ["asics"]), ProductFilter(name: "params.color", values: ["blue"])]
        #expect(!ProductFilter.product(shoe, passes: both))
        #expect(ProductFilter.product(shoe, passes: [both[0]]))
        #expect(ProductFilter.product(shoe, passes: []))
    }

    @Test func parsesTheCommandLineForm() throws {
        #expect(try ProductFilter(parsing: "params.color=red,blue") == ProductFilter(name: "params.color", values: ["red", "blue"]))
        #expect(throws: PayloadError.self) { try ProductFilter(parsing: "=red") }
        #expect(throws: PayloadError.self) { try ProductFilter(parsing: "color") }
    }
}

@Suite("Field selection")
struct FieldSelectionTests {
    let product = try! RawProduct(JSONValue(parsing: #"{"productId":"p1","name":"N","price":5,"params":{"color":"red","size":"M"}}"#))

    @Test func vendorMeaningOfTheFieldsParameter() {
        #expect(FieldSelection(fields: nil) == .all)
        #expect(FieldSelection(fields: []) == .productIdOnly)
        #expect(FieldSelection(fields: ["name"]) == .only(["name"]))
        #expect(FieldSelection.all.fields == nil)
        #expect(FieldSelection.productIdOnly.fields == [])
    }

    @Test func keepsTheProductIdAndTheListedFields() {
        #expect(FieldSelection.all.apply(to: product) == product)
        #expect(FieldSelection.productIdOnly.apply(to: product).fields == ["productId": "p1"])
        #expect(FieldSelection.only(["name"]).apply(to: product).fields == ["productId": "p1", "name": "N"])
        #expect(FieldSelection.only(["params.color"]).apply(to: product).fields == ["productId": "p1", "params": ["color": "red"]])
    }
}
