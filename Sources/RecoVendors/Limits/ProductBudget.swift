/// Counts the products one reply keeps against its ``ReplyLimits``, and reports where a limit was
/// reached: once per widget for ``ReplyLimits/productsPerWidget``, once per reply for
/// ``ReplyLimits/productsPerReply``.
struct ProductBudget {
    let limits: ReplyLimits
    /// Products kept so far, over every widget of the reply.
    private(set) var kept = 0
    private var replyLimitReported = false

    init(_ limits: ReplyLimits) {
        self.limits = limits
    }

    /// How many products a widget may keep at most: its own limit, or what is left of the reply's.
    var widgetCapacity: Int { min(limits.productsPerWidget, limits.productsPerReply - kept) }

    /// Whether a widget already holding `count` products may keep the one at `path`. When not, a
    /// ``DecodingNotice/Kind/limitReached`` notice says so at `path`; the caller then stops the widget.
    mutating func admits(_ count: Int, at path: JSONPath, of instanceId: String, report: inout DecodingReport) -> Bool {
        if kept >= limits.productsPerReply {
            if !replyLimitReported {
                replyLimitReported = true
                report.add(DecodingNotice(.limitReached, at: path, "the reply already holds \(limits.productsPerReply) products (ReplyLimits.productsPerReply); this and every later product is left out"))
            }
            return false
        }
        if count >= limits.productsPerWidget {
            report.add(DecodingNotice(.limitReached, at: path, "\(instanceId) already holds \(limits.productsPerWidget) products (ReplyLimits.productsPerWidget); this and the rest of its products are left out"))
            return false
        }
        return true
    }

    /// Counts one product kept.
    mutating func take() { kept += 1 }
}
