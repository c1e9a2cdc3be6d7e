import Foundation
import RecoKit

/// The widgets this server rendered for each visitor, so a widget-view report is accepted only for a
/// widget the visitor was really shown.
///
/// Bounded, whatever visitors (or forged cookies) arrive: at most ``maxVisitors`` visitors and
/// ``maxBytes`` bytes in all (the visitor seen least recently is forgotten first), and
/// ``maxWidgetsPerVisitor`` widgets each (the oldest is forgotten first). A widget whose ids are longer
/// than ``maxIdBytes`` is not remembered. The bytes are reckoned as the ids' UTF-8 lengths plus a fixed
/// allowance per visitor and per widget for the storage around them.
public final class RenderedWidgets: @unchecked Sendable {
    /// A widget shown to a visitor.
    public struct Shown: Sendable, Hashable {
        /// Who sent it.
        public var vendor: Vendor
        /// Its instance id.
        public var instanceId: String
        /// Its interaction id.
        public var interactionId: String

        /// A widget as shown.
        public init(vendor: Vendor, instanceId: String, interactionId: String) {
            self.vendor = vendor
            self.instanceId = instanceId
            self.interactionId = interactionId
        }

        var cost: Int { instanceId.utf8.count + interactionId.utf8.count + vendor.rawValue.utf8.count + RenderedWidgets.widgetOverhead }
    }

    /// How many visitors are remembered.
    public let maxVisitors: Int
    /// How many widgets are remembered per visitor.
    public let maxWidgetsPerVisitor: Int
    /// How many bytes all visitors' widgets may take, as reckoned above.
    public let maxBytes: Int
    /// The longest instance or interaction id remembered, in UTF-8 bytes.
    public static let maxIdBytes = 256
    static let visitorOverhead = 96
    static let widgetOverhead = 64

    private let lock = NSLock()
    private var memory: BoundedLRU<String, [Shown]>

    /// An empty memory with these bounds (defaults: 10,000 visitors, 32 widgets each, 16 MiB).
    public init(maxVisitors: Int = 10_000, maxWidgetsPerVisitor: Int = 32, maxBytes: Int = 16 << 20) {
        self.maxVisitors = max(1, maxVisitors)
        self.maxWidgetsPerVisitor = max(1, maxWidgetsPerVisitor)
        self.maxBytes = max(1, maxBytes)
        memory = BoundedLRU(maxCount: self.maxVisitors, maxBytes: self.maxBytes)
    }

    /// Remembers that `widgets` were rendered for `visitor`.
    public func record(_ widgets: [Shown], for visitor: String) {
        let widgets = widgets.filter { $0.instanceId.utf8.count <= Self.maxIdBytes && $0.interactionId.utf8.count <= Self.maxIdBytes }
        guard !widgets.isEmpty, visitor.utf8.count <= Self.maxIdBytes else { return }
        lock.withLock {
            var list = memory.get(visitor) ?? []
            for widget in widgets where !list.contains(widget) { list.append(widget) }
            if list.count > maxWidgetsPerVisitor { list.removeFirst(list.count - maxWidgetsPerVisitor) }
            memory.set(visitor, list, cost: Self.cost(of: list, visitor: visitor))
        }
    }

    /// Takes the widget out of the visitor's memory if it is there (a view is counted once per rendering).
    /// - Returns: the widget, or nil when this server did not render it for this visitor.
    public func take(instanceId: String, interactionId: String, for visitor: String) -> Shown? {
        lock.withLock {
            guard var list = memory.peek(visitor),
                  let index = list.firstIndex(where: { $0.instanceId == instanceId && $0.interactionId == interactionId })
            else { return nil }
            let shown = list.remove(at: index)
            if list.isEmpty { memory.remove(visitor) } else { memory.set(visitor, list, cost: Self.cost(of: list, visitor: visitor)) }
            return shown
        }
    }

    /// How many visitors are remembered now.
    public var visitorCount: Int { lock.withLock { memory.count } }

    /// The bytes remembered now, as reckoned above (never more than ``maxBytes``).
    public var byteCount: Int { lock.withLock { memory.bytes } }

    /// How many visitors were forgotten to stay within the bounds, since the start.
    public var evictions: Int { lock.withLock { memory.evictions } }

    private static func cost(of list: [Shown], visitor: String) -> Int {
        list.reduce(visitor.utf8.count + visitorOverhead) { $0 + $1.cost }
    }
}
