import RecoTemplates

/// The product page's HTML: a plain, clean page with the recommendation blocks under the product, and a
/// dozen lines of script that report a block as seen (`POST /beacon`) once half of it is on screen.
/// The page works without the script: links, impressions and clicks need none.
struct ProductPage {
    var productId: String
    var name: String
    var blocks: String

    var html: String {
        let id = HTMLEscaping.escape(productId)
        let name = HTMLEscaping.escape(self.name)
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(name) · Storefront</title>
        <style>
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
        header, main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem; }
        header { border-bottom: 1px solid #e5e5e5; }
        header a { color: inherit; text-decoration: none; font-weight: 600; }
        .sf-product { background: #fff; border-radius: .75rem; padding: 1.5rem; margin-bottom: 2rem; }
        .sf-sale { color: #b3261e; font-weight: 600; margin-right: .4rem; }
        /* The carousel scrolls sideways inside its block; its visually hidden texts ("Was") are positioned
           absolutely, so without a positioned item they escape that scroller and widen the whole page. */
        .reco-item { position: relative; }
        </style>
        </head>
        <body>
        <header><a href="/">Storefront</a></header>
        <main>
        <article class="sf-product">
          <h1>\(name)</h1>
          <p>Product \(id). Everything you need to know about it; the blocks below come from the recommendation vendors.</p>
        </article>
        \(blocks)
        </main>
        \(blocks.isEmpty ? "" : Self.beaconScript)
        </body>
        </html>

        """
    }

    /// Reports each block once when half of it is visible; sendBeacon posts a form with the block's ids.
    static let beaconScript = """
        <script>
        (function () {
          if (!("IntersectionObserver" in window) || !navigator.sendBeacon) return;
          var observer = new IntersectionObserver(function (entries) {
            entries.forEach(function (entry) {
              if (!entry.isIntersecting) return;
              observer.unobserve(entry.target);
              var block = entry.target.dataset;
              navigator.sendBeacon("/beacon", new URLSearchParams({ instanceId: block.recoInstanceId, interactionId: block.recoInteractionId }));
            });
          }, { threshold: 0.5 });
          document.querySelectorAll("section[data-reco-instance-id]").forEach(function (block) { observer.observe(block); });
        })();
        </script>
        """
}
