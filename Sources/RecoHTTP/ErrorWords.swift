import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport's error in words for a log line, a tracker's last error or a page's report: what happened,
/// never a dump of the error's user info.
///
/// `String(describing:)` of Foundation's networking errors on Linux is
/// `Error Domain=NSURLErrorDomain Code=-1005 "(null)"UserInfo={NSErrorFailingURLStringKey=…}`: unreadable,
/// and it holds the request's address, with a vendor's API key in its query (Segmentify's `apiKey=`), for
/// every log that keeps it. And `localizedDescription` of an error that is not Foundation's is only
/// "The operation could not be completed. (AsyncHTTPClient.HTTPClientError error 1.)".
package enum ErrorWords {
    /// `error` in words: for Foundation's networking errors, their own description (curl's, on Linux:
    /// "transfer closed with 87 bytes remaining to read") or the meaning of their code; for other errors,
    /// their localized description unless it is the generic one, then their own description.
    package static func of(_ error: any Error) -> String {
        let bridged = error as NSError
        if bridged.domain == NSURLErrorDomain {
            if let words = bridged.userInfo[NSLocalizedDescriptionKey] as? String, !words.isEmpty { return words }
            return meaning(ofURLErrorCode: bridged.code)
        }
        let localized = error.localizedDescription
        return localized.hasPrefix("The operation could not be completed") ? String(describing: error) : localized
    }

    /// Words for a `URLError` code without a description of its own.
    static func meaning(ofURLErrorCode code: Int) -> String {
        switch URLError.Code(rawValue: code) {
        case .timedOut: "the request timed out"
        case .cannotFindHost: "the host name did not resolve"
        case .cannotConnectToHost: "could not connect to the host"
        case .networkConnectionLost: "the connection was lost before a whole reply"
        case .notConnectedToInternet: "not connected to a network"
        case .badServerResponse: "the server's reply was not valid HTTP"
        case .secureConnectionFailed: "the TLS connection failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            "the server's certificate is not trusted"
        case .cancelled: "the request was cancelled"
        case .badURL, .unsupportedURL: "the address is not a URL this transport can use"
        case .dataLengthExceedsMaximum: "the reply is too large"
        case .cannotParseResponse: "the reply could not be parsed"
        case .zeroByteResource: "the reply was empty"
        default: "a network error (URLError code \(code))"
        }
    }
}
