import Foundation

extension ConnectifPurchaseEvent {
    /// Reads a purchase event written by ``body`` (or by hand, as in `Samples/Payloads/connectif-purchase.json`).
    ///
    /// Amounts may be JSON numbers or numeric strings and are read exactly as `Decimal`.
    /// - Parameter limits: bounds on the event's size and shape (documents of 4 MiB unless given:
    ///   ``VendorPayloadKind/defaultLimits``); an event beyond them is a `limitExceeded` error.
    /// - Throws: ``PayloadError`` with the JSON path of the first missing, mistyped or invalid field
    ///   (`missing required key "cartId" at $.purchase`), including the purchase rules of
    ///   ``Purchase/validate()``.
    public static func decode(_ data: Data, limits: JSONLimits = VendorPayloadKind.connectifPurchase.defaultLimits) throws(PayloadError) -> ConnectifPurchaseEvent {
        try PayloadDocument(parsing: data, limits: limits).connectifPurchase()
    }

    /// Reads a purchase event read as a tree or a tape (see the `Data` overload).
    static func decode<Node: JSONNode>(node root: Node) throws(PayloadError) -> ConnectifPurchaseEvent {
        let reader = Reader(value: root, path: .root)
        let type = try reader.string("type")
        guard type == Self.type else {
            throw .invalidValue("expected event type \"\(Self.type)\", found \"\(type.shortened(to: String.quotedCodeLength))\"", at: reader.path.appending(key: "type"))
        }
        let purchase = try reader.object("purchase").purchase()
        let context = try reader.object("context")
        let event = ConnectifPurchaseEvent(
            checked: purchase,
            context: EventContext(platform: try context.string("platform"), osVersion: try context.string("osVersion"),
                                  appVersion: try context.string("appVersion"), toolkitVersion: try context.string("toolkitVersion")))
        if let problem = purchase.problems.first {
            throw .invalidValue(problem.description, at: Self.path(of: problem.field ?? "", under: reader.path.appending(key: "purchase")))
        }
        return event
    }

    private init(checked purchase: Purchase, context: EventContext) {
        self.purchase = purchase
        self.context = context
    }

    /// `products[1].quantity` as a JSON path below `prefix`.
    private static func path(of field: String, under prefix: JSONPath) -> JSONPath {
        var path = prefix
        for part in field.split(separator: ".") {
            var name = Substring(part)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "["), let index = Int(name[name.index(after: open)...].dropLast()) {
                indices.insert(index, at: 0)
                name = name[..<open]
            }
            path = path.appending(key: String(name))
            for index in indices { path = path.appending(index: index) }
        }
        return path
    }
}

/// Reads typed members of one JSON object, naming the path of whatever is missing or mistyped.
private struct Reader<Node: JSONNode> {
    let value: Node
    let path: JSONPath

    func member(_ key: String) throws(PayloadError) -> Node {
        guard let member = value[key], !member.isNull else { throw .missingKey(key, at: path) }
        return member
    }

    func object(_ key: String) throws(PayloadError) -> Reader {
        let member = try member(key)
        guard member.isObject else { throw .typeMismatch(expected: "an object", found: member.kindPlaceholder, at: path.appending(key: key)) }
        return Reader(value: member, path: path.appending(key: key))
    }

    func string(_ key: String) throws(PayloadError) -> String {
        let member = try member(key)
        guard let text = member.stringValue else { throw .typeMismatch(expected: "a string", found: member.kindPlaceholder, at: path.appending(key: key)) }
        return text
    }

    func optionalString(_ key: String) throws(PayloadError) -> String? {
        value[key].flatMap { $0.isNull ? nil : $0 } == nil ? nil : try string(key)
    }

    func int(_ key: String) throws(PayloadError) -> Int {
        let member = try member(key)
        // A scalar's tree is the scalar alone: cheap to make, and it reads numbers and numeric strings alike.
        guard let number = member.tree.intValue else { throw .typeMismatch(expected: "a whole number", found: member.kindPlaceholder, at: path.appending(key: key)) }
        return number
    }

    func optionalInt(_ key: String) throws(PayloadError) -> Int? {
        value[key].flatMap { $0.isNull ? nil : $0 } == nil ? nil : try int(key)
    }

    func decimal(_ key: String) throws(PayloadError) -> Decimal {
        let member = try member(key)
        guard let amount = member.tree.decimalValue else { throw .typeMismatch(expected: "a number", found: member.kindPlaceholder, at: path.appending(key: key)) }
        return amount
    }

    func optionalDecimal(_ key: String) throws(PayloadError) -> Decimal? {
        value[key].flatMap { $0.isNull ? nil : $0 } == nil ? nil : try decimal(key)
    }

    func optionalDate(_ key: String) throws(PayloadError) -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw .invalidValue("expected an ISO 8601 date such as 2025-03-14T09:26:53Z, found \"\(text.shortened(to: String.quotedCodeLength))\"", at: path.appending(key: key))
        }
        return date
    }

    func optionalStrings(_ key: String) throws(PayloadError) -> [String]? {
        guard let member = value[key], !member.isNull else { return nil }
        guard let elements = member.nodeElements else { throw .typeMismatch(expected: "an array of strings", found: member.kindPlaceholder, at: path.appending(key: key)) }
        var texts: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw .typeMismatch(expected: "a string", found: element.kindPlaceholder, at: path.appending(key: key).appending(index: index))
            }
            texts.append(text)
        }
        return texts
    }

    func purchase() throws(PayloadError) -> Purchase {
        let productsValue = try member("products")
        guard let elements = productsValue.nodeElements else {
            throw .typeMismatch(expected: "an array of products", found: productsValue.kindPlaceholder, at: path.appending(key: "products"))
        }
        var products: [ProductBasketItem] = []
        for (index, element) in elements.enumerated() {
            let itemPath = path.appending(key: "products").appending(index: index)
            guard element.isObject else { throw .typeMismatch(expected: "a product object", found: element.kindPlaceholder, at: itemPath) }
            products.append(try Reader(value: element, path: itemPath).basketItem())
        }
        var sourceType: PurchaseSourceType?
        if let text = try optionalString("source_type") {
            do {
                sourceType = try PurchaseSourceType(parsing: text)
            } catch {
                throw .invalidValue(error.description, at: path.appending(key: "source_type"))
            }
        }
        return Purchase(
            purchaseId: try string("purchaseId"), cartId: try string("cartId"), totalQuantity: try int("totalQuantity"),
            totalPrice: try decimal("totalPrice"), products: products, purchaseDate: try optionalDate("purchaseDate"),
            paymentMethod: try optionalString("paymentMethod"), sourceName: try optionalString("source_name"), sourceType: sourceType)
    }

    func basketItem() throws(PayloadError) -> ProductBasketItem {
        ProductBasketItem(
            productId: try string("productId"), name: try string("name"), unitPrice: try decimal("unitPrice"),
            quantity: try int("quantity"), price: try decimal("price"),
            productDetailUrl: try optionalString("productDetailUrl"), description: try optionalString("description"),
            imageUrl: try optionalString("imageUrl"), categories: try optionalStrings("categories"), tags: try optionalStrings("tags"),
            brand: try optionalString("brand"), reviewCount: try optionalInt("reviewCount"), rating: try optionalDecimal("rating"),
            ratingCount: try optionalInt("ratingCount"), thumbnailUrl: try optionalString("thumbnailUrl"),
            unitPriceOriginal: try optionalDecimal("unitPriceOriginal"), unitPriceWithoutVAT: try optionalDecimal("unitPriceWithoutVAT"),
            discountedAmount: try optionalDecimal("discountedAmount"), discountedPercentage: try optionalDecimal("discountedPercentage"),
            publishedAt: try optionalDate("publishedAt"), customField1: try optionalString("customField1"),
            customField2: try optionalString("customField2"), customField3: try optionalString("customField3"))
    }
}
