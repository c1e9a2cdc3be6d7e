import Foundation
import Testing
@testable import RecoVendors

@Suite("8digits requests")
struct EightDigitsAPITests {
    let api = try! EightDigitsAPI(urlPrefix: URL(string: "http://tr-api.8digits.com")!, trackingCode: "Xk3sP0q9")
    let visitor = EightDigitsAPI.Visitor(authToken: "7b3f0c9e", visitorCode: "a1b2c3d4")
    let common = ["authToken": "7b3f0c9e", "trackingCode": "Xk3sP0q9", "visitorCode": "a1b2c3d4"]

    func merged(_ extra: [String: String]) -> [String: String] { common.merging(extra) { _, new in new } }

    @Test func auth() throws {
        let request = try api.auth(username: "acme", password: "s3cret&=")
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://tr-api.8digits.com/api/auth")
        #expect(request.fields == ["username": "acme", "password": "s3cret&="])
        #expect(request.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "password=s3cret%26%3D&username=acme")
        let urlRequest = request.urlRequest
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(urlRequest.httpBody == request.body)
    }

    @Test func visitWithAndWithoutTheCallersCodes() throws {
        let own = try api.createVisit(visitor, title: "Ana sayfa", path: "/home", sessionCode: "74164c40", hitCode: "1")
        #expect(own.url.path == "/api/visit/create")
        #expect(own.fields == merged(["pageTitle": "Ana sayfa", "path": "/home", "sessionCode": "74164c40", "hitCode": "1"]))
        let server = try api.createVisit(visitor, title: "Home", path: "/home")
        #expect(server.fields == merged(["pageTitle": "Home", "path": "/home"]), "absent codes are left out, not sent empty")
        #expect(server.body.map { String(decoding: $0, as: UTF8.self) }
            == "authToken=7b3f0c9e&pageTitle=Home&path=%2Fhome&trackingCode=Xk3sP0q9&visitorCode=a1b2c3d4")
    }

    @Test func screensVisitEndAndScore() throws {
        let hit = try api.createHit(visitor, sessionCode: "s1", title: "Basket", path: "/basket")
        #expect(hit.url.path == "/api/hit/create")
        #expect(hit.fields == merged(["sessionCode": "s1", "pageTitle": "Basket", "path": "/basket"]))
        #expect(try api.createHit(visitor, sessionCode: "s1", title: "B", path: "/b", hitCode: "h9")[field: "hitCode"] == "h9")
        let endHit = try api.endHit(visitor, sessionCode: "s1", hitCode: "h9")
        #expect(endHit.url.path == "/api/hit/end")
        #expect(endHit.fields == merged(["sessionCode": "s1", "hitCode": "h9"]))
        let endVisit = try api.endVisit(visitor, sessionCode: "s1")
        #expect(endVisit.url.path == "/api/visit/end")
        #expect(endVisit.fields == merged(["sessionCode": "s1"]))
        #expect(try api.badges(visitor).url.path == "/api/visitor/badges")
        #expect(try api.badges(visitor).fields == common)
        #expect(try api.score(visitor).url.path == "/api/visitor/score")
        #expect(try api.score(visitor).fields == common)
    }

    @Test func eventsBoundToAHitOrToNothing() throws {
        let bound = try api.event(visitor, key: "AddToShoppingCart", value: "120.99", sessionCode: "s1", hitCode: "h1")
        #expect(bound.url.path == "/api/event/create")
        #expect(bound.fields == merged(["key": "AddToShoppingCart", "value": "120.99", "sessionCode": "s1", "hitCode": "h1"]))
        let serverSide = try api.event(visitor, key: "ReportBatchFinished")
        #expect(serverSide.fields == merged(["key": "ReportBatchFinished"]), "no value, session or hit")
    }

    typealias Build = @Sendable (EightDigitsAPI, EightDigitsAPI.Visitor) throws -> Void

    static let badArguments: [(String, Build)] = [
        ("key", { api, v in _ = try api.event(v, key: " ") }),
        ("sessionCode", { api, v in _ = try api.event(v, key: "k", hitCode: "h1") }),
        ("hitCode", { api, v in _ = try api.createHit(v, sessionCode: "s", title: "t", path: "/", hitCode: "") }),
        ("username", { api, _ in _ = try api.auth(username: "", password: "p") }),
        ("password", { api, _ in _ = try api.auth(username: "u", password: "") }),
        ("authToken", { api, _ in _ = try api.score(EightDigitsAPI.Visitor(authToken: "", visitorCode: "v")) }),
        ("visitorCode", { api, _ in _ = try api.badges(EightDigitsAPI.Visitor(authToken: "t", visitorCode: "")) }),
        ("latitude", { api, v in _ = try api.updateLocation(v, sessionCode: "s", latitude: 90.5, longitude: 0) }),
        ("longitude", { api, v in _ = try api.updateLocation(v, sessionCode: "s", latitude: 0, longitude: -180.01) }),
        ("badgeId", { api, _ in _ = try api.badgeImageURL(badgeId: "") }),
    ]

    @Test(arguments: badArguments)
    func refusesBadArgumentsNamingThem(argument: String, build: Build) {
        #expect {
            try build(api, visitor)
        } throws: { error in
            (error as? EightDigitsError)?.argument == argument
        }
    }

    @Test func location() throws {
        let request = try api.updateLocation(visitor, sessionCode: "s1", latitude: Decimal(string: "41.0082")!, longitude: Decimal(string: "-28.9784")!)
        #expect(request.url.path == "/api/visit/location")
        #expect(request.fields == merged(["sessionCode": "s1", "latitude": "41.0082", "longitude": "-28.9784"]))
        #expect(throws: Never.self) { try api.updateLocation(visitor, sessionCode: "s1", latitude: -90, longitude: 180) }
    }

    @Test func badgeImageIsAPublicGet() throws {
        #expect(try api.badgeImageURL(badgeId: "4f0a9e450364c808e94bfd32").absoluteString
            == "http://tr-api.8digits.com/api/badge/image/4f0a9e450364c808e94bfd32")
        #expect(try api.badgeImageURL(badgeId: "a/b c").absoluteString == "http://tr-api.8digits.com/api/badge/image/a%2Fb%20c")
    }

    @Test func thePrefixIsNormalized() throws {
        let api = try EightDigitsAPI(urlPrefix: URL(string: "https://tr-api.8digits.com/api/")!, trackingCode: "Xk3sP0q9")
        #expect(try api.auth(username: "u", password: "p").url.absoluteString == "https://tr-api.8digits.com/api/auth")
        #expect(throws: EightDigitsError.self) { try EightDigitsAPI(urlPrefix: URL(string: "tr-api.8digits.com")!, trackingCode: "x") }
        #expect {
            try EightDigitsAPI(urlPrefix: URL(string: "http://tr-api.8digits.com")!, trackingCode: "")
        } throws: { error in
            (error as? EightDigitsError)?.argument == "trackingCode"
        }
    }
}
