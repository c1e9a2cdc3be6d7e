import Foundation
import Hummingbird
import Logging
import RecoKit
import RecoPage
import RecoTemplates

/// The storefront's routes: product pages with recommendation blocks, click-through redirects and the
/// widget-view beacon.
///
/// | route | does |
/// |---|---|
/// | `GET /` | redirects to a sample product |
/// | `GET /products/{id}` | the product page with its blocks (`?blocks=off`: without them, for comparison) |
/// | `GET /r/{token}` | records the click and answers 302 to the product; 404 for a bad, tampered or expired token |
/// | `POST /beacon` | `instanceId` and `interactionId` (form or query): a widget-view, 204 if this visitor was shown that block |
/// | `GET /static` | with `--static-page FILE` only: the file as is (see ``StaticPage``) |
/// | `GET /metrics` | with ``metrics`` only: RecoKit's metrics in Prometheus's text format (``StorefrontMetrics``) |
///
/// What a request records follows RecoPage's ``ImpressionPolicy``: a known bot or crawler (or a request
/// with no `User-Agent`) gets the same pages and redirects but records no impression, widget view or
/// click; a prefetch records nothing either, though the blocks it was shown are remembered for the
/// visitor, so the widget-view beacon of a later real view still counts.
public struct Storefront: Sendable {
    /// Where recommendations come from.
    public let source: RecommendationSource
    /// Where interactions go.
    public let tracking: StorefrontTracking
    /// Signs click-through links.
    public let tokens: ClickTokens
    /// The blocks shown to each visitor.
    public let rendered: RenderedWidgets
    /// Renders the blocks (the built-in carousel with the sample's own price block).
    public let renderer: WidgetRenderer
    /// The template the blocks are rendered with.
    public let template: String
    /// Served at `GET /static` when set (the measurement's reference).
    public let staticPage: StaticPage?
    /// Signs and checks the visitor's cookies.
    public let cookies: VisitorCookies
    /// The clicks counted, so a link followed again and again counts once per visitor.
    public let clicks: ClickLedger
    /// The products the shop sells: the only product pages, and where their recommendations link.
    public let catalog: Catalog
    /// Which requests record impressions and clicks (bots and prefetches do not).
    public let impressionPolicy: ImpressionPolicy
    /// Served at `GET /metrics` when set.
    public let metrics: StorefrontMetrics?
    let logger: Logger

    /// A storefront; the renderer defaults to the sample's templates over the built-in ones.
    public init(source: RecommendationSource, tracking: StorefrontTracking, tokens: ClickTokens = ClickTokens(),
                rendered: RenderedWidgets = RenderedWidgets(), renderer: WidgetRenderer? = nil,
                template: String = "storefront-carousel", staticPage: StaticPage? = nil,
                cookies: VisitorCookies = VisitorCookies(), clicks: ClickLedger = ClickLedger(), catalog: Catalog? = nil,
                impressionPolicy: ImpressionPolicy = ImpressionPolicy(), metrics: StorefrontMetrics? = nil,
                logger: Logger = Logger(label: "storefront")) throws {
        self.source = source
        self.tracking = tracking
        self.tokens = tokens
        self.rendered = rendered
        self.renderer = try renderer ?? WidgetRenderer(library: Self.templates())
        self.template = template
        self.staticPage = staticPage
        self.cookies = cookies
        self.clicks = clicks
        self.catalog = try catalog ?? Catalog.sample()
        self.impressionPolicy = impressionPolicy
        self.metrics = metrics
        self.logger = logger
    }

    /// The sample's template folder over the built-in templates.
    public static func templates() throws -> TemplateLibrary {
        guard let folder = Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources") else {
            throw HTTPError(.internalServerError, message: "the sample's templates folder is missing from its bundle")
        }
        return try TemplateLibrary(directory: folder, fallback: .builtIn)
    }

    /// The routes above on a new router, behind ``ErrorPages`` (routes added to it later are too); every
    /// line logged while a request is handled carries its id (``RequestLogging``), and so does the
    /// response (`X-Request-Id`).
    public func router() -> Router<StorefrontRequestContext> {
        let router = Router(context: StorefrontRequestContext.self)
        router.add(middleware: RequestIdMiddleware())
        router.add(middleware: ErrorPages(logger: logger))
        router.get("/") { _, _ in Response.redirect(to: "/products/100900", type: .found) }
        router.get("/products/:id") { request, context in try await productPage(request, context: context) }
        router.get("/r/:token") { request, context in await click(request, context: context) }
        router.post("/beacon") { request, _ in await beacon(request) }
        if let staticPage { router.get("/static") { _, context in staticPage.response(requestId: RequestLogging.id(of: context), logger: logger) } }
        if let metrics { router.get("/metrics") { _, _ in metrics.response() } }
        if StageClock.shared.isEnabled {
            router.get("/profile") { _, _ in Self.text(.ok, StageClock.shared.json) }
        }
        return router
    }

    func productPage(_ request: Request, context: StorefrontRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard (1...64).contains(id.utf8.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
              let name = catalog.names[id] else {
            throw HTTPError(.notFound)
        }
        let visitor = Visitor(request: request, cookies: cookies)
        var blocks = ""
        if request.uri.queryParameters["blocks"] != "off" {
            blocks = await recommendationBlocks(productId: id, visitor: visitor, visit: visit(of: request), pageURL: "/products/\(id)")
        }
        var response = Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: ProductPage(productId: id, name: name, blocks: blocks).html)))
        visitor.remember(on: &response, cookies: cookies)
        return response
    }

    /// Who or what sent `request`, as the impression policy sees it.
    func visit(of request: Request) -> PageVisit {
        impressionPolicy.visit(headers: request.headers.map { (name: $0.name.canonicalName, value: $0.value) })
    }

    /// The rendered blocks, remembered for the visitor (not for a bot) and their impressions tracked (for
    /// a person's visit only); empty when the vendors gave nothing in time or rendering failed. With a
    /// cache (the source's, `--cache-ttl`), a product's blocks are rendered once for every visitor while
    /// its answers are kept.
    func recommendationBlocks(productId: String, visitor: Visitor, visit: PageVisit, pageURL: String) async -> String {
        let blocks = await source.blocks(forProduct: productId, visitor: visitor, pageURL: pageURL, name: template) { widgets in
            try render(Self.without(productId, in: widgets))
        }
        guard !blocks.widgets.isEmpty else { return "" }
        guard visit.kind != .bot else {
            logger.debug("no impressions recorded", metadata: ["visit": "\(visit)"])
            return blocks.html
        }
        StageClock.shared.measure(.remember) {
            rendered.record(blocks.widgets.map { RenderedWidgets.Shown(vendor: $0.vendor, instanceId: $0.instanceId, interactionId: $0.interactionId) },
                            for: visitor.id)
        }
        if visit.records {
            StageClock.shared.measure(.track) { tracking.rendered(blocks.widgets, context: Self.context(visitor: visitor, pageURL: pageURL)) }
        } else {
            logger.debug("no impressions recorded", metadata: ["visit": "\(visit)"])
        }
        return blocks.html
    }

    /// Renders the blocks, each product link a signed `/r/{token}` to the shop's page for it (the
    /// vendor's URL for a product not in the catalog). The links name no visitor (see ``ClickToken``),
    /// so one rendering can serve every visitor while it is cached.
    func render(_ widgets: [Widget<StoreProduct>]) throws -> RenderedPage<StoreProduct> {
        guard !widgets.isEmpty else { return .none }
        var renderer = self.renderer
        let tokens = self.tokens
        let catalog = self.catalog
        renderer.clickLink = ClickLink { target in
            "/r/" + tokens.issue(ClickToken(vendor: target.vendor, instanceId: target.instanceId, interactionId: target.interactionId,
                                            productId: target.productId, position: target.position,
                                            destination: catalog.pagePath(of: target.productId) ?? target.link, expires: Date()))
        }
        let html = try StageClock.shared.measure(.render) { try renderer.render(widgets, template: template) }
        return RenderedPage(widgets: widgets, html: html)
    }

    /// Credits the click to the visitor named by the cookies (a new one, told by cookies on the redirect,
    /// when there are none) and sends them to the product. A link followed again by the same visitor,
    /// or again by any request without a valid visitor cookie, is not counted again (``ClickLedger``);
    /// a bot's or a prefetch's follow is not counted at all (``impressionPolicy``).
    func click(_ request: Request, context: StorefrontRequestContext) async -> Response {
        guard let text = context.parameters.get("token"), let token = tokens.verify(text) else {
            return Self.text(.notFound, "This link is not valid or has expired.\n")
        }
        let visitor = Visitor(request: request, cookies: cookies)
        if visit(of: request).records, clicks.isFirstClick(tokenId: ClickTokens.tokenId(of: text), visitor: visitor.isNew ? nil : visitor.id, expires: token.expires) {
            tracking.clicked(token, context: Self.context(visitor: visitor, pageURL: nil))
        }
        var response = Response.redirect(to: token.destination, type: .found)
        response.headers[.cacheControl] = "no-store"
        visitor.remember(on: &response, cookies: cookies)
        return response
    }

    func beacon(_ request: Request) async -> Response {
        guard let visitor = Visitor.existing(in: request, cookies: cookies) else { return Self.text(.forbidden, "No visitor.\n") }
        var request = request
        guard let body = try? await request.collectBody(upTo: BeaconForm.maxBodyBytes) else {
            return Self.text(.contentTooLarge, "Too large.\n")
        }
        let form: BeaconForm
        switch BeaconForm.parse(query: request.uri.query, body: Array(body.readableBytesView)) {
        case .success(let parsed): form = parsed
        case .failure(let refusal) where refusal == .tooLarge: return Self.text(.contentTooLarge, "Too large.\n")
        case .failure(let refusal): return Self.text(.badRequest, "\(refusal).\n")
        }
        guard let shown = rendered.take(instanceId: form.instanceId, interactionId: form.interactionId, for: visitor.id) else {
            return Self.text(.forbidden, "This block was not shown to you.\n")
        }
        guard visit(of: request).records else { return Response(status: .noContent) }
        tracking.viewed(shown, context: Self.context(visitor: visitor, pageURL: nil))
        return Response(status: .noContent)
    }

    /// The blocks without `productId` (a page does not recommend its own product), positions renumbered
    /// from 1; a block left with nothing is dropped.
    static func without(_ productId: String, in widgets: [Widget<StoreProduct>]) -> [Widget<StoreProduct>] {
        widgets.compactMap { widget in
            var widget = widget
            widget.items = widget.items.filter { $0.product.productId != productId }.enumerated().map { offset, item in
                var item = item
                item.position = offset + 1
                return item
            }
            return widget.items.isEmpty ? nil : widget
        }
    }

    static func context(visitor: Visitor, pageURL: String?) -> InteractionContext {
        InteractionContext(userId: visitor.id, sessionId: visitor.session, lang: "TR", pageUrl: pageURL)
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
