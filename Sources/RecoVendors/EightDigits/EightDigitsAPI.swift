import Foundation

/// Describes each call of the 8digits tracking API for one application, without sending anything.
///
/// Paths and field names are those of 8digits' SDKs: `POST {prefix}/api/auth` (`username`,
/// `password`), `/api/visit/create`, `/api/visit/end`, `/api/hit/create`, `/api/hit/end`,
/// `/api/event/create`, `/api/visitor/badges`, `/api/visitor/score`, and the public
/// `GET /api/badge/image/{badgeId}`. Every authenticated call carries `authToken`, `trackingCode`
/// and `visitorCode`. The guide names no path for the location update; this toolkit sends it to
/// `/api/visit/location` with `latitude` and `longitude`.
///
/// ```swift
/// let api = try EightDigitsAPI(urlPrefix: URL(string: "http://tr-api.8digits.com")!, trackingCode: "Xk3sP0q9")
/// let request = try api.auth(username: "acme", password: "s3cret")
/// request.url      // http://tr-api.8digits.com/api/auth
/// request.body     // password=s3cret&username=acme
/// ```
public struct EightDigitsAPI: Hashable, Sendable {
    /// The API's address (`http://tr-api.8digits.com`), without a trailing `/` or `/api`.
    public let urlPrefix: URL
    /// The application's tracking code.
    public let trackingCode: String

    /// The API of one application.
    /// - Throws: ``EightDigitsError`` when the prefix is not an http(s) URL or the tracking code is empty.
    public init(urlPrefix: URL, trackingCode: String) throws(EightDigitsError) {
        guard let scheme = urlPrefix.scheme?.lowercased(), scheme == "http" || scheme == "https", urlPrefix.host != nil else {
            throw .invalidArgument("urlPrefix", "expected an http or https URL, got \"\(urlPrefix.absoluteString)\"")
        }
        var text = urlPrefix.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix("/api") { text.removeLast(4) }
        self.urlPrefix = URL(string: text)!
        self.trackingCode = try Self.required(trackingCode, "trackingCode")
    }

    /// The identity of an authenticated visitor: its auth token and visitor code.
    public struct Visitor: Hashable, Sendable {
        /// The token from ``EightDigitsAPI/auth(username:password:)``.
        public var authToken: String
        /// The visitor's unique code, chosen by the caller.
        public var visitorCode: String

        /// A visitor.
        public init(authToken: String, visitorCode: String) {
            self.authToken = authToken
            self.visitorCode = visitorCode
        }
    }

    /// Authenticates: answers `{"data":{"authToken":…}}`.
    public func auth(username: String, password: String) throws(EightDigitsError) -> EightDigitsRequest {
        request("auth", ["username": try Self.required(username, "username"), "password": try Self.required(password, "password")])
    }

    /// Starts a visit (a session). `sessionCode` and `hitCode` are optional: the server makes its own when absent.
    public func createVisit(_ visitor: Visitor, title: String, path: String, sessionCode: String? = nil, hitCode: String? = nil) throws(EightDigitsError) -> EightDigitsRequest {
        var fields = try common(visitor)
        fields["pageTitle"] = title
        fields["path"] = path
        fields["sessionCode"] = try Self.optional(sessionCode, "sessionCode")
        fields["hitCode"] = try Self.optional(hitCode, "hitCode")
        return request("visit/create", fields)
    }

    /// Ends a visit.
    public func endVisit(_ visitor: Visitor, sessionCode: String) throws(EightDigitsError) -> EightDigitsRequest {
        var fields = try common(visitor)
        fields["sessionCode"] = try Self.required(sessionCode, "sessionCode")
        return request("visit/end", fields)
    }

    /// Starts a screen (a hit) in a visit; `hitCode` is optional (the server makes one when absent).
    public func createHit(_ visitor: Visitor, sessionCode: String, title: String, path: String, hitCode: String? = nil) throws(EightDigitsError) -> EightDigitsRequest {
        var fields = try common(visitor)
        fields["sessionCode"] = try Self.required(sessionCode, "sessionCode")
        fields["pageTitle"] = title
        fields["path"] = path
        fields["hitCode"] = try Self.optional(hitCode, "hitCode")
        return request("hit/create", fields)
    }

    /// Ends a screen.
    public func endHit(_ visitor: Visitor, sessionCode: String, hitCode: String) throws(EightDigitsError) -> EightDigitsRequest {
        var fields = try common(visitor)
        fields["sessionCode"] = try Self.required(sessionCode, "sessionCode")
        fields["hitCode"] = try Self.required(hitCode, "hitCode")
        return request("hit/end", fields)
    }

    /// Sends an event: `key` is required, `value` optional; `sessionCode` and `hitCode` bind it to a
    /// screen and are left out for a server-side event.
    public func event(_ visitor: Visitor, key: String, value: String? = nil, sessionCode: String? = nil, hitCode: String? = nil) throws(EightDigitsError) -> EightDigitsRequest {
        var fields = try common(visitor)
        fields["key"] = try Self.required(key, "key")
        fields["value"] = value
        fields["sessionCode"] = try Self.optional(sessionCode, "sessionCode")
        fields["hitCode"] = try Self.optional(hitCode, "hitCode")
        if hitCode != nil && sessionCode == nil {
            throw .invalidArgument("sessionCode", "an event bound to a hit needs the hit's session code")
        }
        return request("event/create", fields)
    }

    /// Updates the visitor's location: latitude within -90…90, longitude within -180…180, in decimal degrees.
    public func updateLocation(_ visitor: Visitor, sessionCode: String, latitude: Decimal, longitude: Decimal) throws(EightDigitsError) -> EightDigitsRequest {
        guard (-90...90).contains(latitude) else { throw .invalidArgument("latitude", "must be within -90 and 90, got \(latitude)") }
        guard (-180...180).contains(longitude) else { throw .invalidArgument("longitude", "must be within -180 and 180, got \(longitude)") }
        var fields = try common(visitor)
        fields["sessionCode"] = try Self.required(sessionCode, "sessionCode")
        fields["latitude"] = latitude.description
        fields["longitude"] = longitude.description
        return request("visit/location", fields)
    }

    /// Asks for the visitor's badges: answers `{"data":{"badges":[ids],"count":N}}`.
    public func badges(_ visitor: Visitor) throws(EightDigitsError) -> EightDigitsRequest {
        request("visitor/badges", try common(visitor))
    }

    /// Asks for the visitor's score: answers `{"data":{"score":N}}`.
    public func score(_ visitor: Visitor) throws(EightDigitsError) -> EightDigitsRequest {
        request("visitor/score", try common(visitor))
    }

    /// The public address of a badge's image (no token needed).
    public func badgeImageURL(badgeId: String) throws(EightDigitsError) -> URL {
        URL(string: urlPrefix.absoluteString + "/api/badge/image/" + PercentEncoding.encode(try Self.required(badgeId, "badgeId")))!
    }

    private func common(_ visitor: Visitor) throws(EightDigitsError) -> [String: String?] {
        [
            "authToken": try Self.required(visitor.authToken, "authToken"),
            "trackingCode": trackingCode,
            "visitorCode": try Self.required(visitor.visitorCode, "visitorCode"),
        ]
    }

    private func request(_ path: String, _ fields: [String: String?]) -> EightDigitsRequest {
        EightDigitsRequest(url: urlPrefix.appendingPathComponent("api/" + path), fields: fields)
    }

    private static func required(_ text: String, _ name: String) throws(EightDigitsError) -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidArgument(name, "must not be empty") }
        return text
    }

    private static func optional(_ text: String?, _ name: String) throws(EightDigitsError) -> String? {
        guard let text else { return nil }
        return try required(text, name)
    }
}
