import RecoRelay
/// The Mustache templates of the preview gallery's own pages (not user templates: the gallery's frame).
///
/// They are rendered with HTML escaping; the only raw insertions (`{{{html}}}`, `{{{style}}}`) are
/// fragments RecoKit itself rendered and escaped.
enum PreviewPageTemplates {
    static let sources: [String: String] = [
        "preview-layout": layout,
        "preview-index": index,
        "preview-payload": payload,
    ]

    static let layout = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{$pageTitle}}RecoKit preview{{/pageTitle}}</title>
        <style>
        :root{color-scheme:light;--ink:#1f2328;--muted:#57606a;--line:#d0d7de;--paper:#ffffff;--desk:#f3f4f6;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--accent:#0b57d0}
        *{box-sizing:border-box}
        body{margin:0;background:var(--desk);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        a{color:var(--accent)}
        .top{background:#0d1117;color:#f0f6fc;padding:1.25rem 1.5rem}
        .top>div{max-width:1132px;margin:0 auto}
        .top a{color:#9ecbff}
        .top .pill{background:#fff}
        .top h1{margin:0;font-size:1.5rem;font-weight:650}
        .top p{margin:.25rem 0 0;color:#c9d1d9}
        main{max-width:1180px;margin:0 auto;padding:1.5rem}
        .card{background:var(--paper);border:1px solid var(--line);border-radius:12px;padding:1.25rem;margin:0 0 1.5rem;min-width:0}
        .card>h2{margin:0 0 .25rem;font-size:1.3rem}
        .facts{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:.25rem 0 1rem;padding:0;color:var(--muted);font-size:.9rem}
        .facts div{display:flex;gap:.35rem}
        .facts dt{font-weight:600}
        .facts dd{margin:0;overflow-wrap:anywhere}
        code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
        pre{margin:0;padding:.75rem 1rem;background:#f6f8fa;border:1px solid var(--line);border-radius:8px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
        .pill{display:inline-block;padding:.05rem .6rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid currentColor;white-space:nowrap}
        .pill.ok{color:var(--ok)}.pill.warn{color:var(--warn)}.pill.bad{color:var(--bad)}.pill.info{color:var(--muted)}
        table.payloads{width:100%;border-collapse:collapse;background:var(--paper)}
        table.payloads th,table.payloads td{padding:.6rem .75rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
        table.payloads th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
        table.payloads code{overflow-wrap:anywhere}
        .table-scroll{overflow-x:auto}
        @media (max-width:640px){
          table.payloads thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
          table.payloads tr{display:block;padding:.5rem 0;border-bottom:1px solid var(--line)}
          table.payloads td{display:grid;grid-template-columns:6rem minmax(0,1fr);gap:.5rem;padding:.2rem .25rem;border:0}
          table.payloads .pill{white-space:normal;overflow-wrap:anywhere}
          table.payloads td::before{content:attr(data-label);font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
        }
        .request pre{white-space:pre-wrap;overflow-wrap:anywhere}
        img[data-unavailable]{object-fit:contain;background:#f6f8fa}
        .renderings{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:1rem}
        .rendering{margin:0;min-width:0;border:1px solid var(--line);border-radius:10px;overflow:hidden;background:var(--paper)}
        .rendering.wide{grid-column:1/-1}
        .rendering figcaption{display:flex;justify-content:space-between;gap:1rem;padding:.4rem .75rem;background:#f6f8fa;border-bottom:1px solid var(--line);font-size:.8rem;font-weight:600;color:var(--muted)}
        .rendering .stage{padding:1rem;min-width:0}
        .rendering .stage.mail{background:#eef1f4}
        .rendering .stage pre{border:0;background:none;padding:0}
        h3{margin:1.25rem 0 .5rem;font-size:1rem}
        .requests{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,340px),1fr));gap:1rem}
        .request h4{margin:0 0 .35rem;font-size:.9rem}
        .report li{margin:.2rem 0;overflow-wrap:anywhere}
        .report summary{cursor:pointer;font-weight:600;margin:.25rem 0}
        .explain{border-left:4px solid var(--warn);padding:.25rem 0 .25rem 1rem}
        .explain.bad{border-color:var(--bad)}
        .explain.info{border-color:var(--line)}
        .explain pre{max-height:28rem}
        .todo{border:2px dashed var(--warn);border-radius:8px;padding:.75rem 1rem;color:var(--warn)}
        nav.toc{font-size:.9rem}
        @media (max-width:600px){main{padding:.75rem}.card{padding:.75rem}.rendering .stage{padding:.5rem}.top{padding:1rem .75rem}}
        nav.toc ol{margin:.25rem 0 0;padding-left:1.25rem}
        </style>
        {{{style}}}
        <script>
        // Offline, or when a vendor's image host is gone, an image that cannot load is swapped for a marked
        // placeholder instead of the browser's broken-image icon; its title keeps the address it had.
        addEventListener("error", function (event) {
          var image = event.target;
          if (!(image instanceof HTMLImageElement) || image.hasAttribute("data-unavailable")) return;
          image.setAttribute("data-unavailable", image.getAttribute("src") || "");
          image.title = "image unavailable: " + (image.getAttribute("src") || "no address");
          image.src = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200"><defs><pattern id="s" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="12" fill="#eef1f4"/></pattern></defs><rect width="200" height="200" fill="#f6f8fa"/><rect width="200" height="200" fill="url(#s)"/><rect x="1" y="1" width="198" height="198" fill="none" stroke="#8c959f" stroke-width="2" stroke-dasharray="8 6"/><text x="100" y="96" font-family="system-ui,sans-serif" font-size="17" font-weight="600" fill="#57606a" text-anchor="middle">image</text><text x="100" y="118" font-family="system-ui,sans-serif" font-size="17" font-weight="600" fill="#57606a" text-anchor="middle">unavailable</text></svg>');
        }, true);
        </script>
        </head>
        <body>
        <header class="top"><div>
          {{$header}}<h1>RecoKit preview</h1>{{/header}}
        </div></header>
        <main>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """#

    static let index = #"""
        {{<preview-layout}}
        {{$header}}
          <h1>RecoKit preview</h1>
          <p>{{payloadCount}} payloads · {{widgetCount}} widgets · {{productCount}} products, each in every built-in template ({{templateList}}), with its decoding report and tracking requests.</p>
        {{/header}}
        {{$content}}
        <div class="card table-scroll">
        <table class="payloads">
          <thead><tr><th scope="col">Payload</th><th scope="col">Vendor</th><th scope="col">What it is</th><th scope="col">Widgets</th><th scope="col">Report</th></tr></thead>
          <tbody>
        {{#payloads}}
            <tr>
              <td data-label="Payload"><span><a href="{{page}}">{{name}}</a><br><code>{{file}}</code></span></td>
              <td data-label="Vendor"><span>{{vendor}}</span></td>
              <td data-label="What it is"><span><span class="pill {{statusClass}}">{{status}}</span></span></td>
              <td data-label="Widgets"><span>{{widgetSummary}}</span></td>
              <td data-label="Report"><span>{{reportSummary}}</span></td>
            </tr>
        {{/payloads}}
          </tbody>
        </table>
        </div>
        {{/content}}
        {{/preview-layout}}

        """#

    static let payload = #"""
        {{<preview-layout}}
        {{$pageTitle}}{{name}} · RecoKit preview{{/pageTitle}}
        {{$header}}
          <p><a href="index.html">← All payloads</a></p>
          <h1>{{name}}</h1>
          <p><code>{{file}}</code> · {{vendor}} · <span class="pill {{statusClass}}">{{status}}</span></p>
        {{/header}}
        {{$content}}
        {{#explanation}}
        <div class="card">
          <h2>What this payload is</h2>
          <div class="explain {{statusClass}}"><p>{{explanation}}</p>{{#detail}}<pre>{{detail}}</pre>{{/detail}}</div>
        </div>
        {{/explanation}}
        {{#standIns}}
        <div class="card">
          <h2>Shown with stand-ins</h2>
          <p class="explain info">{{standIns}}</p>
        </div>
        {{/standIns}}
        <div class="card report">
          <h2>Decoding report</h2>
        {{#hasReport}}
          <details{{#reportOpen}} open{{/reportOpen}}>
          <summary>{{reportSummary}}</summary>
          <ul>
        {{#failures}}
            <li><span class="pill bad">failure</span> {{.}}</li>
        {{/failures}}
        {{#notices}}
            <li><span class="pill warn">notice</span> {{.}}</li>
        {{/notices}}
          </ul>
          </details>
        {{/hasReport}}
        {{^hasReport}}
          <p>{{emptyReportNote}}</p>
        {{/hasReport}}
        {{#hasWidgets}}
          <nav class="toc" aria-label="Widgets"><ol>{{#widgets}}<li><a href="#{{anchor}}">{{tocLabel}}</a> <small>({{productCount}} products)</small></li>{{/widgets}}</ol></nav>
        {{/hasWidgets}}
        {{#widgetCapNote}}
          <p class="cap">{{widgetCapNote}}</p>
        {{/widgetCapNote}}
        </div>
        {{#widgets}}
        <section class="card" id="{{anchor}}" aria-labelledby="{{anchor}}-heading">
          <h2 id="{{anchor}}-heading">{{heading}}</h2>
          <dl class="facts">
            <div><dt>vendor</dt><dd>{{vendor}}</dd></div>
            <div><dt>instanceId</dt><dd><code>{{instanceId}}</code></dd></div>
            <div><dt>interactionId</dt><dd><code>{{interactionId}}</code></dd></div>
            <div><dt>products</dt><dd>{{productCount}}</dd></div>
            <div><dt>at</dt><dd><code>{{path}}</code></dd></div>
          </dl>
        {{#capNote}}
          <p class="cap">{{capNote}}</p>
        {{/capNote}}
          <div class="renderings">
        {{#renderings}}
            <figure class="rendering{{#wide}} wide{{/wide}}">
              <figcaption><span>{{template}}</span><span>{{note}}</span></figcaption>
              <div class="stage{{#mail}} mail{{/mail}}">{{#text}}<pre>{{text}}</pre>{{/text}}{{{html}}}</div>
            </figure>
        {{/renderings}}
          </div>
          <h3>Tracking requests</h3>
        {{#trackingNote}}
          <p class="todo">{{trackingNote}}</p>
        {{/trackingNote}}
          <div class="requests">
        {{#requests}}
            <div class="request">
              <h4>{{label}}</h4>
              <pre>{{request}}</pre>
            </div>
        {{/requests}}
          </div>
        </section>
        {{/widgets}}
        {{/content}}
        {{/preview-layout}}

        """#
}
