import RecoKit

/// Segmentify's change-user event: the visitor's id becomes ``newUserId`` (for example when an
/// anonymous visitor logs in and you unify them under one id on every channel).
///
/// The guide names no wire form; this sends `USER_CHANGE` with `userId` set to the new id and
/// `oldUserId` to the id in ``common``. Update ``SegmentifyVisitors`` with
/// ``SegmentifyVisitors/changeUser(of:to:)`` so later events use the new id.
public struct SegmentifyUserChange: SegmentifyEvent {
    /// The wire name, `USER_CHANGE`.
    public static let eventName = "USER_CHANGE"
    /// Errors name fields as `userChange.<field>`.
    public static let fieldPrefix = "userChange"

    /// The id the visitor has from now on (mandatory).
    public var newUserId: String
    /// The fields every event shares; its `userId` is the id being replaced.
    public var common: SegmentifyCommonFields

    /// A change of the visitor's id.
    public init(newUserId: String, common: SegmentifyCommonFields) {
        self.newUserId = newUserId
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.text(newUserId, "userChange.newUserId")
        if newUserId == common.userId { throw .conflict("userChange.newUserId", "is the visitor's current userId") }
        return ["oldUserId": .string(common.userId)]
    }

    /// The common fields with the new user id.
    public var wireContext: InteractionContext {
        var context = common.context
        context.userId = newUserId
        return context
    }
}
