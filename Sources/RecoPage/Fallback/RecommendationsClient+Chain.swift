import RecoKit

extension RecommendationsClient {
    /// One vendor's part of a page down the fallback chain, from its settled answer: the answer decoded
    /// into the caller's model (fresh, cached, stale, or kept for stale-if-error), else the shop's lists
    /// given with the request, else no block; the observer is told which step served it.
    func serve<Product: RecommendableProduct>(_ settled: Settled, _ request: RecommendationsRequest, as type: Product.Type,
                                              fields: FieldSelection, filters: [ProductFilter]) -> VendorWidgets<Product> {
        let vendor = request.vendor
        var passedOver: [ServedBlock.PassedOver] = []
        var failure = settled.failure
        switch settled.answer {
        case .success(let stored):
            do throws(NoWidgets) {
                let recommendations = try Self.decoded(stored.answer.recommendations, as: type, fields: fields, filters: filters, vendor: vendor)
                if settled.step == .staleIfError {
                    cache?.countStaleIfError()
                    if let failure { passedOver.append(.init(step: .fresh, reason: failure.description)) }
                }
                return observed(VendorWidgets(vendor: vendor, result: .success(recommendations),
                                              served: ServedBlock(vendor: vendor, step: settled.step, failure: failure,
                                                                  passedOver: passedOver, age: settled.age)))
            } catch {
                if settled.step == .staleIfError, let failure {
                    passedOver.append(.init(step: .fresh, reason: failure.description))
                    passedOver.append(.init(step: .staleIfError, reason: "the answer kept decoded to nothing: \(error)"))
                } else {
                    // The vendor answered, but nothing of it decoded into this model: a kept answer would
                    // not either, so the shop's lists are next.
                    passedOver.append(.init(step: settled.step, reason: error.description))
                    failure = error
                }
            }
        case .failure(let error):
            failure = error
            passedOver.append(.init(step: .fresh, reason: error.description))
            passedOver.append(.init(step: .staleIfError, reason: Self.words(settled.noKept ?? NoKeptAnswer.none)))
        }
        let reason = failure ?? .decodingFailed(vendor, error: nil, report: DecodingReport())
        if request.fallback.isEmpty {
            passedOver.append(.init(step: .shopFallback, reason: "no shop list given"))
        } else {
            let shop = Recommendations(widgets: request.fallback.map(\.widget)).decoded(as: type, fields: fields, filters: filters)
            if !shop.widgets.isEmpty {
                return observed(VendorWidgets(vendor: vendor, result: .success(shop),
                                              served: ServedBlock(vendor: vendor, step: .shopFallback, failure: reason, passedOver: passedOver)))
            }
            passedOver.append(.init(step: .shopFallback, reason: "no product of the shop's lists decoded: " + NoWidgets.firstLines(of: shop.report, count: 3)))
        }
        return observed(VendorWidgets(vendor: vendor, result: .failure(reason),
                                      served: ServedBlock(vendor: vendor, step: .none, failure: reason, passedOver: passedOver)))
    }

    /// The report of a part served from a settled answer without decoding it (its rendering was kept):
    /// the answer's step, told to the observer.
    func served(_ settled: Settled) -> ServedBlock {
        var passedOver: [ServedBlock.PassedOver] = []
        if settled.step == .staleIfError, let failure = settled.failure {
            cache?.countStaleIfError()
            passedOver.append(.init(step: .fresh, reason: failure.description))
        }
        let served = ServedBlock(vendor: settled.vendor, step: settled.step, failure: settled.failure, passedOver: passedOver, age: settled.age)
        observer?.blockServed(served)
        return served
    }

    /// Every answer, in order: at once when all were in the cache, else waited for side by side.
    func settleAll(_ pending: [Pending], _ requests: [RecommendationsRequest], budget: Duration) async -> [Settled] {
        var ready: [Settled] = []
        ready.reserveCapacity(pending.count)
        for (waiting, request) in zip(pending, requests) {
            guard case .ready(let stored, let step, let age) = waiting else { break }
            ready.append(Settled(vendor: request.vendor, answer: .success(stored), step: step, age: age))
        }
        if ready.count == pending.count { return ready }
        return await withTaskGroup(of: (Int, Settled).self) { group in
            for index in pending.indices {
                let (waiting, request) = (pending[index], requests[index])
                group.addTask { (index, await self.settle(waiting, request, budget: budget)) }
            }
            var answers: [(Int, Settled)] = []
            answers.reserveCapacity(pending.count)
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The part, once the observer has been told which step served it.
    private func observed<Product>(_ part: VendorWidgets<Product>) -> VendorWidgets<Product> {
        observer?.blockServed(part.served)
        return part
    }

    /// Why no kept answer stood in, in words.
    static func words(_ reason: NoKeptAnswer) -> String {
        switch reason {
        case .noCache: "the client has no cache"
        case .personal: "the request is personal: its answers are never kept"
        case .none: "no answer kept"
        case .expired(let age): "the last answer, \(age.components.seconds) s old, was past the stale-if-error window"
        }
    }
}
