import Foundation
import RecoKit

/// Reads Segmentify event objects as apps send them (the guide's JSON, numbers or numeric strings for
/// prices and quantities, `"true"`/`"false"` for flags) into the builders, so a server can validate
/// what it relays. Unknown keys are refused, never dropped.
///
/// ```swift
/// let body = try JSONValue(parsing: request.body)         // a JSON array of events
/// for object in body.arrayValue ?? [] {
///     try tracker.track(SegmentifyEventReader.interaction(from: object))
/// }
/// ```
///
/// Errors name the field: `productView.price: must be a number ≥ 0, got "abc"`.
public enum SegmentifyEventReader {
    /// The names of the events the reader knows (`INTERACTION` included).
    public static let eventNames = ["PAGE_VIEW", "PRODUCT_VIEW", "BASKET_OPERATIONS", "CHECKOUT", "USER_OPERATIONS",
                                    "USER_CHANGE", "CUSTOM_EVENT", "SEARCH", "INTERACTION"]

    /// The event object as a builder, validated. `INTERACTION` is not a builder: use ``interaction(from:occurred:)``.
    /// - Throws: ``SegmentifyEventError`` naming the first field that is missing, malformed or unknown.
    public static func event(from json: JSONValue) throws(SegmentifyEventError) -> any SegmentifyEvent {
        guard let fields = json.objectValue else { throw .invalid("event", must: "be a JSON object", got: json.description) }
        guard let name = fields["name"]?.stringValue else { throw .missing("event.name") }
        let event: any SegmentifyEvent
        switch name {
        case SegmentifyPageView.eventName: event = try pageView(fields)
        case SegmentifyProductView.eventName: event = try productView(fields)
        case SegmentifyBasketOperation.eventName: event = try basketOperation(fields)
        case SegmentifyCheckout.eventName: event = try checkout(fields)
        case SegmentifyUserOperation.eventName: event = try userOperation(fields)
        case SegmentifyUserChange.eventName: event = try userChange(fields)
        case SegmentifyCustomEvent.eventName: event = try customEvent(fields)
        case SegmentifySearchEvent.eventName: event = try search(fields)
        default:
            let names = eventNames.filter { $0 != "INTERACTION" }.joined(separator: ", ")
            throw .invalid("event.name", must: "be one of \(names)", got: SegmentifyFieldRules.quoted(name))
        }
        _ = try event.vendorEvent()
        return event
    }

    /// Any event object, `INTERACTION` included, as the interaction a ``RecoTracking/Tracker`` journals.
    /// - Throws: ``SegmentifyEventError`` naming the first field that is missing, malformed or unknown.
    public static func interaction(from json: JSONValue, occurred: Date = Date()) throws(SegmentifyEventError) -> Interaction {
        if let fields = json.objectValue, fields["name"]?.stringValue == "INTERACTION" {
            return try segmentifyInteraction(fields, occurred: occurred)
        }
        return try event(from: json).interaction(occurred: occurred)
    }

    private static func pageView(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyPageView {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyPageView.fieldPrefix)
        let event = SegmentifyPageView(category: SegmentifyPageCategory(rawValue: try object.required("category")),
                                       subCategory: try object.string("subCategory"), common: try object.common())
        try object.finish()
        return event
    }

    private static func productView(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyProductView {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyProductView.fieldPrefix)
        var event = SegmentifyProductView(productId: try object.required("productId"), title: try object.required("title"),
                                          url: try object.required("url"), image: try object.required("image"),
                                          category: try object.required("category"), price: try object.requiredDecimal("price"),
                                          common: try object.common())
        event.oldPrice = try object.decimal("oldPrice")
        event.inStock = try object.bool("inStock")
        event.mobileUrl = try object.string("mUrl")
        event.imageXS = try object.string("imageXS")
        event.imageS = try object.string("imageS")
        event.imageM = try object.string("imageM")
        event.imageL = try object.string("imageL")
        event.imageXL = try object.string("imageXL")
        event.brand = try object.string("brand")
        event.gender = try object.choice("gender", SegmentifyProductView.Gender.self)
        event.colors = try object.strings("colors")
        event.sizes = try object.strings("sizes")
        event.labels = try object.strings("labels")
        event.noUpdate = try object.bool("noUpdate")
        try object.finish()
        return event
    }

    private static func basketOperation(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyBasketOperation {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyBasketOperation.fieldPrefix)
        guard let step = try object.choice("step", SegmentifyBasketOperation.Step.self) else { throw .missing("basketOperation.step") }
        let event = SegmentifyBasketOperation(step: step, productId: try object.required("productId"), price: try object.decimal("price"),
                                              quantity: try object.decimal("quantity", rule: "be a number > 0"),
                                              common: try object.common())
        try object.finish()
        return event
    }

    private static func checkout(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyCheckout {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyCheckout.fieldPrefix)
        guard let step = try object.choice("step", SegmentifyCheckout.Step.self) else { throw .missing("checkout.step") }
        guard let list = try object.array("productList") else { throw .missing("checkout.productList") }
        var products: [SegmentifyBasketProduct] = []
        for (index, element) in list.enumerated() {
            let prefix = "checkout.products[\(index)]"
            guard let members = element.objectValue else { throw .invalid(prefix, must: "be an object", got: element.description) }
            var product = SegmentifyEventObject(members, prefix: prefix, nested: true)
            products.append(SegmentifyBasketProduct(productId: try product.required("productId"), price: try product.decimal("price"),
                                                    currency: try product.string("currency"),
                                                    quantity: try product.decimal("quantity", rule: "be a number > 0")))
            try product.finish()
        }
        let event = SegmentifyCheckout(step: step, totalPrice: try object.requiredDecimal("totalPrice"), products: products,
                                       orderNo: try object.string("orderNo"), cartUrl: try object.string("cartUrl"),
                                       common: try object.common())
        try object.finish()
        return event
    }

    private static func userOperation(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyUserOperation {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyUserOperation.fieldPrefix)
        guard let step = try object.choice("step", SegmentifyUserOperation.Step.self) else { throw .missing("userOperation.step") }
        let profile = SegmentifyUserProfile(fullName: try object.string("fullName"), email: try object.string("email"),
                                            phone: try object.string("phone"), isLogin: try object.bool("isLogin"),
                                            isRegistered: try object.bool("isRegistered"),
                                            gender: try object.choice("gender", SegmentifyUserProfile.Gender.self),
                                            age: try object.int("age", rule: "be a number of years"),
                                            birthdate: try object.string("birthdate"), memberSince: try object.string("memberSince"),
                                            location: try object.string("location"), segments: try object.strings("segments"))
        let event = SegmentifyUserOperation(step: step, username: try object.required("username"), profile: profile,
                                            common: try object.common())
        try object.finish()
        return event
    }

    private static func userChange(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyUserChange {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyUserChange.fieldPrefix)
        var common = try object.common()
        let newUserId = common.userId
        common.userId = try object.required("oldUserId")
        let event = SegmentifyUserChange(newUserId: newUserId, common: common)
        try object.finish()
        return event
    }

    private static func customEvent(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifyCustomEvent {
        var object = SegmentifyEventObject(fields, prefix: SegmentifyCustomEvent.fieldPrefix)
        var common = try object.common()
        let params = common.params
        common.params = [:]
        let event = SegmentifyCustomEvent(type: try object.required("type"), params: params, common: common)
        try object.finish()
        return event
    }

    private static func search(_ fields: [String: JSONValue]) throws(SegmentifyEventError) -> SegmentifySearchEvent {
        var object = SegmentifyEventObject(fields, prefix: SegmentifySearchEvent.fieldPrefix)
        let event = SegmentifySearchEvent(query: try object.string("query"), common: try object.common())
        try object.finish()
        return event
    }

    /// `INTERACTION` objects: impression and widget-view name the block; a click names the product in
    /// `interactionId` (`bs_product` and `product` instance ids are search clicks).
    private static func segmentifyInteraction(_ fields: [String: JSONValue], occurred: Date) throws(SegmentifyEventError) -> Interaction {
        var object = SegmentifyEventObject(fields, prefix: "interaction")
        let type = try object.required("type")
        let instanceId = try object.required("instanceId")
        let interactionId = try object.required("interactionId")
        let common = try object.common()
        try object.finish()
        try common.validate(in: "interaction")
        let context = common.context
        switch type {
        case "impression", "widget-view":
            return Interaction(kind: type == "impression" ? .impression : .widgetView, instanceId: instanceId,
                               interactionId: interactionId, context: context, occurred: occurred)
        case "click" where instanceId == "bs_product" || instanceId == "product":
            return .searchClick(productId: interactionId, phase: instanceId == "product" ? .search : .beforeSearch,
                                context: context, occurred: occurred)
        case "click":
            let productId = instanceId.hasPrefix("fcs_") && interactionId.hasSuffix("|product")
                ? String(interactionId.dropLast(8)) : interactionId
            return Interaction(kind: .click, instanceId: instanceId, productId: productId, context: context, occurred: occurred)
        default:
            throw .invalid("interaction.type", must: "be one of \"impression\", \"widget-view\", \"click\"",
                           got: SegmentifyFieldRules.quoted(type))
        }
    }
}
