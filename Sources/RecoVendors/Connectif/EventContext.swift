import Foundation

/// What Connectif's SDK collects by itself with every event (operating system, app version, OS
/// version, SDK version), in its server form: the platform the service runs on, the service's own
/// version, and this toolkit's version.
public struct EventContext: Hashable, Sendable {
    /// This toolkit's version, sent as `toolkitVersion`.
    public static let toolkitVersion = "0.1.0"

    /// The platform: `Linux`, `macOS`, `Windows`…
    public var platform: String
    /// The operating system's version, as the system reports it.
    public var osVersion: String
    /// The version of the service that sends the events.
    public var appVersion: String
    /// The toolkit's version.
    public var toolkitVersion: String

    /// A context with every value given.
    public init(platform: String, osVersion: String, appVersion: String, toolkitVersion: String = EventContext.toolkitVersion) {
        self.platform = platform
        self.osVersion = osVersion
        self.appVersion = appVersion
        self.toolkitVersion = toolkitVersion
    }

    /// The context of this process: its platform and OS version, the caller's app version, this toolkit's version.
    public static func collected(appVersion: String) -> EventContext {
        EventContext(platform: currentPlatform, osVersion: ProcessInfo.processInfo.operatingSystemVersionString, appVersion: appVersion)
    }

    private static var currentPlatform: String {
        #if os(Linux)
        "Linux"
        #elseif os(macOS)
        "macOS"
        #elseif os(Windows)
        "Windows"
        #elseif os(iOS)
        "iOS"
        #else
        "unknown"
        #endif
    }
}
