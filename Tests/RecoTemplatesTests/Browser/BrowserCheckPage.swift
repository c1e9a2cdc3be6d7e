import Foundation

/// A test page for Chromium: the rendered fragments between a trusted head and a trusted checker.
///
/// The head defines `pwn(n)`, which every hostile value tries to call (as `top.pwn(n)`): a call records `n`
/// in the `data-pwned` attribute of `<html>`. Once the page has settled, the checker looks at what the
/// browser made of the markup: every URL attribute (and SVG animated `href`) is resolved by the browser's own
/// URL parser and must be http(s), file (the page's own folder) or `about:`; no computed background image
/// may use another scheme; a `srcdoc` frame's document is checked the same way. It writes one line per
/// finding into `<pre id="verdict">`, after a marker line, so a page that navigated away (whose DOM lacks
/// the marker) is told apart from a clean one.
struct BrowserCheckPage {
    /// What the browser showed: the calls to `pwn`, the findings, and whether the page stayed.
    struct Verdict {
        var pwned: [String]
        var findings: [String]
        var stayed: Bool
    }

    static let marker = "checked-by-reco"

    /// The page's HTML around the fragments.
    static func html(_ fragments: [String]) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>escaping</title>
        <script>window.pwn = function (n) { var r = document.documentElement; r.setAttribute('data-pwned', (r.getAttribute('data-pwned') || '') + ' ' + n); };</script>
        </head><body>
        \(fragments.joined(separator: "\n"))
        <script>\(checker)</script>
        </body></html>
        """
    }

    /// Reads the verdict from the DOM Chromium printed.
    static func verdict(from dom: String) -> Verdict {
        var pwned: [String] = []
        if let range = dom.range(of: #"data-pwned=""#) {
            let rest = dom[range.upperBound...]
            pwned = rest.prefix(while: { $0 != "\"" }).split(separator: " ").map(String.init)
        }
        var findings: [String] = []
        var stayed = false
        if let start = dom.range(of: "<pre id=\"verdict\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) {
            let text = dom[start.upperBound..<end.lowerBound]
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
            let lines = text.split(separator: "\n").map(String.init)
            stayed = lines.first == marker
            findings = Array(lines.dropFirst())
        }
        return Verdict(pwned: pwned, findings: findings, stayed: stayed)
    }

    /// Runs 400 ms after the page's load event: SVG animations start with the document's timeline, which
    /// on a loaded machine had not started 400 ms after the script (a `<set>` of a javascript: href went
    /// unseen, about one run in ten at load average 15).
    private static let checker = #"""
        function check() {
          var urlNames = ['href', 'src', 'action', 'formaction', 'poster', 'data', 'background', 'ping', 'xlink:href',
            'cite', 'srcset', 'imagesrcset', 'codebase', 'manifest', 'longdesc', 'usemap', 'icon', 'content'];
          var allowed = ['http:', 'https:', 'file:', 'about:'];
          var found = [];
          function bad(u) {
            try { return allowed.indexOf(new URL(u, document.baseURI).protocol) < 0; } catch (e) { return false; }
          }
          function urls(el, name, value) {
            if (name === 'srcset' || name === 'imagesrcset') return value.split(',').map(function (s) { return s.trim().split(/\s+/)[0]; });
            if (name === 'ping') return value.split(/\s+/);
            if (name === 'content') {
              if (!el.hasAttribute('http-equiv')) return [];
              var m = /url\s*=\s*(.*)$/i.exec(value); return m ? [m[1]] : []; }
            return [value];
          }
          function scan(doc, where) {
            var all = doc.querySelectorAll('*');
            for (var i = 0; i < all.length; i++) {
              var el = all[i];
              for (var j = 0; j < el.attributes.length; j++) {
                var a = el.attributes[j], name = a.name.toLowerCase();
                if (urlNames.indexOf(name) < 0) continue;
                urls(el, name, a.value).forEach(function (u) { if (u && bad(u)) found.push(where + ' <' + el.localName + ' ' + name + '> ' + a.value); });
              }
              if (el.href && el.href.animVal !== undefined && bad(el.href.animVal)) found.push(where + ' animated href ' + el.href.animVal);
              var style = doc.defaultView.getComputedStyle(el);
              [style.backgroundImage, style.listStyleImage, style.content].forEach(function (v) {
                var m = /url\(\s*["']?\s*([^"')]*)/i.exec(v || '');
                if (m && bad(m[1])) found.push(where + ' css ' + v);
              });
              if (el.localName === 'iframe' && el.contentDocument) scan(el.contentDocument, where + ' > frame');
            }
          }
          // SVG animations sampled now, not when the browser's next frame comes (on a loaded machine that
          // can be after this timer: a `<set>` of a javascript: href then went unseen).
          function seek(doc) {
            doc.querySelectorAll('svg').forEach(function (s) { if (s.setCurrentTime) s.setCurrentTime(1); });
            doc.querySelectorAll('iframe').forEach(function (f) { if (f.contentDocument) seek(f.contentDocument); });
          }
          seek(document);
          scan(document, 'page');
          var pre = document.createElement('pre');
          pre.id = 'verdict';
          pre.textContent = ['\#(marker)'].concat(found).join('\n');
          document.body.appendChild(pre);
        }
        if (document.readyState === 'complete') setTimeout(check, 400);
        else window.addEventListener('load', function () { setTimeout(check, 400); });
        """#
}
