import RecoKit

/// Segmentify `USER_OPERATIONS`: sign-up, sign-in, sign-out, or an update of what you know of the customer.
///
/// ```swift
/// var profile = SegmentifyUserProfile(email: "john.doe@exampleshop.com")
/// profile.birthdate = "23.01.1980"
/// let signUp = SegmentifyUserOperation(step: .signUp, username: "johndoe", profile: profile, common: common)
/// ```
///
/// Sign-in and sign-out carry the username (and, as the guide's examples do, the email) only; a profile
/// field on them is refused rather than silently sent.
public struct SegmentifyUserOperation: SegmentifyEvent {
    /// The wire name, `USER_OPERATIONS`.
    public static let eventName = "USER_OPERATIONS"
    /// Errors name fields as `userOperation.<field>`.
    public static let fieldPrefix = "userOperation"

    /// What the user did.
    public enum Step: String, Sendable, Hashable, CaseIterable {
        /// Registered (`signup`).
        case signUp = "signup"
        /// Logged in (`signin`).
        case signIn = "signin"
        /// Logged out (`signout`).
        case signOut = "signout"
        /// Shares the customer's details (`update`).
        case update
    }

    /// What the user did (mandatory).
    public var step: Step
    /// The customer's unique name (mandatory).
    public var username: String
    /// What you share about the customer (sign-up and update).
    public var profile: SegmentifyUserProfile
    /// The fields every event shares.
    public var common: SegmentifyCommonFields

    /// A user operation.
    public init(step: Step, username: String, profile: SegmentifyUserProfile = SegmentifyUserProfile(),
                common: SegmentifyCommonFields) {
        self.step = step
        self.username = username
        self.profile = profile
        self.common = common
    }

    /// The event\'s own fields, checked against the guide.
    public func eventFields() throws(SegmentifyEventError) -> [String: JSONValue] {
        try SegmentifyFieldRules.text(username, "userOperation.username")
        let profileFields = try profile.fields(in: "userOperation")
        if step == .signIn || step == .signOut, let extra = profileFields.keys.sorted().first(where: { $0 != "email" }) {
            throw .conflict("userOperation.\(extra)", "only signup and update carry a profile, not \(step.rawValue)")
        }
        var fields = profileFields
        fields["step"] = .string(step.rawValue)
        fields["username"] = .string(username)
        return fields
    }
}

/// What you share about a customer in a ``SegmentifyUserOperation``; every field is optional.
public struct SegmentifyUserProfile: Sendable, Hashable {
    /// The customer's gender: Segmentify takes `M` or `F`.
    public enum Gender: String, Sendable, Hashable, CaseIterable {
        /// `M`.
        case male = "M"
        /// `F`.
        case female = "F"
    }

    /// Full name.
    public var fullName: String?
    /// Email address (needed for email campaigns).
    public var email: String?
    /// Mobile phone number.
    public var phone: String?
    /// Whether the customer is logged in (advanced: changes the status without a login/logout event).
    public var isLogin: Bool?
    /// Whether the customer is registered (advanced).
    public var isRegistered: Bool?
    /// Gender.
    public var gender: Gender?
    /// Age in years; give age or birthdate, not both. Sent as digits text, as the guide types it.
    public var age: Int?
    /// Birthdate as `DD.MM.YYYY`; give age or birthdate, not both.
    public var birthdate: String?
    /// Membership date as `DD.MM.YYYY`.
    public var memberSince: String?
    /// Where the customer lives (`New York`).
    public var location: String?
    /// The customer's segments.
    public var segments: [String]?

    /// A profile; only the fields you pass are sent.
    public init(fullName: String? = nil, email: String? = nil, phone: String? = nil, isLogin: Bool? = nil,
                isRegistered: Bool? = nil, gender: Gender? = nil, age: Int? = nil, birthdate: String? = nil,
                memberSince: String? = nil, location: String? = nil, segments: [String]? = nil) {
        self.fullName = fullName
        self.email = email
        self.phone = phone
        self.isLogin = isLogin
        self.isRegistered = isRegistered
        self.gender = gender
        self.age = age
        self.birthdate = birthdate
        self.memberSince = memberSince
        self.location = location
        self.segments = segments
    }

    func fields(in event: String) throws(SegmentifyEventError) -> [String: JSONValue] {
        typealias Rules = SegmentifyFieldRules
        var fields: [String: JSONValue] = [:]
        for (key, value) in [("fullName", fullName), ("phone", phone), ("location", location)] {
            guard let value else { continue }
            try Rules.text(value, "\(event).\(key)")
            fields[key] = .string(value)
        }
        if let email {
            try Rules.email(email, "\(event).email")
            fields["email"] = .string(email)
        }
        if let isLogin { fields["isLogin"] = .bool(isLogin) }
        if let isRegistered { fields["isRegistered"] = .bool(isRegistered) }
        if let gender { fields["gender"] = .string(gender.rawValue) }
        if let age {
            guard (0...150).contains(age) else { throw .invalid("\(event).age", must: "be a number of years from 0 to 150", got: "\(age)") }
            if birthdate != nil { throw .conflict("\(event).age", "give either age or birthdate, not both") }
            fields["age"] = .string(String(age))
        }
        if let birthdate {
            try Rules.date(birthdate, "\(event).birthdate")
            fields["birthdate"] = .string(birthdate)
        }
        if let memberSince {
            try Rules.date(memberSince, "\(event).memberSince")
            fields["memberSince"] = .string(memberSince)
        }
        if let segments {
            try Rules.list(segments, "\(event).segments")
            fields["segments"] = Rules.strings(segments)
        }
        return fields
    }
}
