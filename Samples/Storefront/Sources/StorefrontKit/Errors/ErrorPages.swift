import Hummingbird
import Logging

/// Turns anything a route throws into a plain page that reveals nothing of the server (no file system
/// path, no error text): the status's generic sentence and the request id. The error itself is logged
/// with that id, so an operator can find it from what a visitor reports.
///
/// An error that carries an HTTP status (a missing route: 404, a body too large: 413) keeps its status;
/// anything else is a 500.
struct ErrorPages<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            // A missing page is common and tells an operator little: debug, so a flood of them does not flood the log.
            let level: Logger.Level = status.code >= 500 ? .error : status == .notFound ? .debug : .notice
            // The id is also in the metadata provider's; named here too for a logger made without it.
            let requestId = RequestLogging.id(of: context)
            logger.log(level: level, "\(request.method) \(request.uri.path): \(status.code): \(error)",
                       metadata: [RequestLogging.metadataKey: .string(requestId)])
            return Self.page(status, requestId: requestId)
        }
    }

    /// The page for `status`: its generic sentence and the request id, nothing else.
    static func page(_ status: HTTPResponse.Status, requestId: String) -> Response {
        let sentence = switch status.code {
        case 400: "The request could not be read."
        case 404: "There is nothing here."
        case 405: "That method is not allowed here."
        case 413: "The request is too large."
        case 400..<500: "The request was refused."
        default: "Something went wrong on our side."
        }
        return Storefront.text(status, "\(sentence)\nRequest id: \(requestId)\n")
    }
}
