import Foundation
import Testing
import RecoKit
import RecoVendors

@Suite("Segmentify USER_OPERATIONS and USER_CHANGE")
struct UserEventTests {
    let common = EventFixtures.common

    var fullProfile: SegmentifyUserProfile {
        SegmentifyUserProfile(fullName: "John Doe", email: "john.doe@exampleshop.com", phone: "+1 555 555 5555", isLogin: true,
                              isRegistered: true, gender: .male, birthdate: "23.01.1980", memberSince: "20.01.2014",
                              location: "New York", segments: ["SEGMENT 1", "SEGMENT 2"])
    }

    @Test func signUpEncodesTheGuidesFieldsByField() throws {
        let signUp = SegmentifyUserOperation(step: .signUp, username: "johndoe", profile: fullProfile, common: common)
        #expect(try signUp.json() == EventFixtures.json("""
        {"name":"USER_OPERATIONS","step":"signup","username":"johndoe","fullName":"John Doe","email":"john.doe@exampleshop.com",
         "phone":"+1 555 555 5555","isLogin":true,"isRegistered":true,"gender":"M","birthdate":"23.01.1980",
         "memberSince":"20.01.2014","location":"New York","segments":["SEGMENT 1","SEGMENT 2"],
         "userId":"-897541074991628287","sessionId":"-2066154474596835328","lang":"EN","currency":"USD",
         "pageUrl":"https://segmentify-shop.myshopify.com/products/asymmetric-dress-black"}
        """))
    }

    @Test func stepsAndNumericAge() throws {
        #expect(SegmentifyUserOperation.Step.allCases.map(\.rawValue) == ["signup", "signin", "signout", "update"])
        let update = SegmentifyUserOperation(step: .update, username: "johndoe", profile: SegmentifyUserProfile(age: 27), common: common)
        let json = try update.json()
        #expect(json["step"]?.stringValue == "update")
        #expect(json["age"]?.stringValue == "27")
        let signIn = try SegmentifyUserOperation(step: .signIn, username: "segmentify",
                                                 profile: SegmentifyUserProfile(email: "example@segmentify.com"), common: common).json()
        #expect(signIn["step"]?.stringValue == "signin")
        #expect(signIn["email"]?.stringValue == "example@segmentify.com")
        #expect(try SegmentifyUserOperation(step: .signOut, username: "segmentify", common: common).json()["step"]?.stringValue == "signout")
    }

    @Test func datesMustBeRealDaysAsDayMonthYear() {
        func signUp(birthdate: String? = nil, memberSince: String? = nil) -> SegmentifyUserOperation {
            SegmentifyUserOperation(step: .signUp, username: "johndoe",
                                    profile: SegmentifyUserProfile(birthdate: birthdate, memberSince: memberSince), common: common)
        }
        expectAccepted(signUp(birthdate: "29.02.2000", memberSince: "31.12.2014"))
        #expect(expectRefused(signUp(birthdate: "1980-01-23"), field: "userOperation.birthdate")
                == #"userOperation.birthdate: must be a date as DD.MM.YYYY, got "1980-01-23""#)
        expectRefused(signUp(birthdate: "04/2014"), field: "userOperation.birthdate")
        expectRefused(signUp(birthdate: "3.1.1980"), field: "userOperation.birthdate")
        expectRefused(signUp(birthdate: "29.02.1900"), field: "userOperation.birthdate")
        expectRefused(signUp(memberSince: "31.04.2014"), field: "userOperation.memberSince")
        expectRefused(signUp(memberSince: "20.13.2014"), field: "userOperation.memberSince")
    }

    @Test func profileRefusalsNameTheField() {
        func update(_ profile: SegmentifyUserProfile, username: String = "johndoe") -> SegmentifyUserOperation {
            SegmentifyUserOperation(step: .update, username: username, profile: profile, common: common)
        }
        expectRefused(update(SegmentifyUserProfile(), username: ""), field: "userOperation.username")
        expectRefused(update(SegmentifyUserProfile(email: "john.doe-at-exampleshop.com")), field: "userOperation.email")
        expectRefused(update(SegmentifyUserProfile(age: -1)), field: "userOperation.age")
        expectRefused(update(SegmentifyUserProfile(age: 400)), field: "userOperation.age")
        #expect(expectRefused(update(SegmentifyUserProfile(age: 27, birthdate: "23.01.1980")), field: "userOperation.age")
                == "userOperation.age: give either age or birthdate, not both")
        expectRefused(update(SegmentifyUserProfile(segments: ["VIP", ""])), field: "userOperation.segments[1]")
        expectRefused(update(SegmentifyUserProfile(fullName: "")), field: "userOperation.fullName")
        #expect(SegmentifyUserProfile.Gender.allCases.map(\.rawValue) == ["M", "F"])
    }

    @Test func signInAndSignOutRefuseProfileFields() {
        let login = SegmentifyUserOperation(step: .signIn, username: "johndoe", profile: SegmentifyUserProfile(fullName: "John Doe"),
                                            common: common)
        #expect(expectRefused(login, field: "userOperation.fullName")
                == "userOperation.fullName: only signup and update carry a profile, not signin")
        let logout = SegmentifyUserOperation(step: .signOut, username: "johndoe", profile: SegmentifyUserProfile(isLogin: false),
                                             common: common)
        expectRefused(logout, field: "userOperation.isLogin")
    }

    @Test func userChangeSendsTheNewIdAndTheOldOne() throws {
        let change = SegmentifyUserChange(newUserId: "CRM_1048576", common: common)
        let json = try change.json()
        #expect(json["name"]?.stringValue == "USER_CHANGE")
        #expect(json["userId"]?.stringValue == "CRM_1048576")
        #expect(json["oldUserId"]?.stringValue == "-897541074991628287")
        #expect(json["sessionId"]?.stringValue == "-2066154474596835328")
        #expect(try change.interaction().context.userId == "CRM_1048576")
        expectRefused(SegmentifyUserChange(newUserId: "", common: common), field: "userChange.newUserId")
        expectRefused(SegmentifyUserChange(newUserId: "-897541074991628287", common: common), field: "userChange.newUserId")
    }
}
