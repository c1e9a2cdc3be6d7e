import Hummingbird
import Logging

/// Puts the request's id in the metadata (`request-id`) of every log line written while the request is
/// handled, by any logger made with ``metadataProvider`` (the command bootstraps swift-log with it): the
/// routes', the recommendation source's and the trackers' lines name the page's request too.
///
/// The id is the client's `X-Request-Id` when it is short and printable (a proxy or load balancer in
/// front set it, so one id follows the request through both logs): 1 to ``maxIncomingLength`` bytes,
/// each a visible ASCII character (`!` to `~`). Anything else (empty, too long, spaces, control or
/// non-ASCII bytes, a header given twice) is ignored and the id is Hummingbird's own for the request.
/// The response carries the id in `X-Request-Id`, and an error page shows it.
public enum RequestLogging {
    /// The id of the request being handled by this task, if any.
    @TaskLocal public static var requestId: String?

    /// The metadata key of the id.
    public static let metadataKey = "request-id"

    /// The longest `X-Request-Id` taken from a client, in bytes.
    public static let maxIncomingLength = 128

    /// Adds `request-id` to a line's metadata when a request is being handled.
    public static let metadataProvider = Logger.MetadataProvider {
        guard let requestId else { return [:] }
        return [metadataKey: .string(requestId)]
    }

    /// The `X-Request-Id` header's name.
    static let header = HTTPFields.Element.Name("X-Request-Id")!

    /// The id for a request: its `X-Request-Id` when there is exactly one and it is short and printable,
    /// else `generated`.
    public static func requestId(incoming values: [String], generated: String) -> String {
        guard values.count == 1, let value = values.first, (1...maxIncomingLength).contains(value.utf8.count),
              value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return generated }
        return value
    }

    /// The id of the request being handled: ``requestId`` inside ``RequestIdMiddleware``, else Hummingbird's.
    static func id(of context: some RequestContext) -> String { requestId ?? context.id }
}

/// Runs the rest of the chain with ``RequestLogging/requestId`` set to the request's id (and the
/// context's logger carrying it), and answers with the id in `X-Request-Id`.
struct RequestIdMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = RequestLogging.requestId(incoming: request.headers[values: RequestLogging.header], generated: context.id)
        var context = context
        context.logger[metadataKey: RequestLogging.metadataKey] = .string(id)
        var response = try await RequestLogging.$requestId.withValue(id) { try await next(request, context) }
        response.headers[RequestLogging.header] = id
        return response
    }
}
