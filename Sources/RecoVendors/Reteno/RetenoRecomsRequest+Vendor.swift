import Foundation
import RecoHTTP

extension RetenoRecomsRequest {
    /// The request as RecoHTTP's value, for any ``RecoHTTP/Transport``: the same method, URL and body,
    /// with the headers sorted by name (so the bytes sent are the same every time).
    public var request: VendorRequest {
        VendorRequest(method: method, url: url, headers: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }, body: body)
    }
}
