/// What the tag being scanned has shown that only its end can decide on: whether a `<meta>` with a value in
/// `content` also has `http-equiv`, and what an SVG animation with a value in `values`/`to`/`from`/`by`
/// animates (see ``HTMLContext``).
struct HTMLTagFacts: Equatable {
    /// The tag has a non-empty `http-equiv`.
    var hasHTTPEquiv = false
    /// The first value in `<meta content>`, by its offset in the template.
    var metaContentValue: Int?
    /// The first value in an animation's `values`/`to`/`from`/`by`, by its offset in the template.
    var animationValue: Int?
    /// The animation's `attributeName`, lowercased; nil when not (yet) written.
    var animationTarget: String?
    /// Different ways through the template's sections give the tag different `attributeName`s.
    var targetDiffers = false

    /// Takes in the facts of the other way through a section: whatever either way shows counts.
    mutating func merge(_ other: HTMLTagFacts) {
        hasHTTPEquiv = hasHTTPEquiv || other.hasHTTPEquiv
        metaContentValue = metaContentValue ?? other.metaContentValue
        animationValue = animationValue ?? other.animationValue
        if animationTarget != other.animationTarget { targetDiffers = true }
        animationTarget = animationTarget ?? other.animationTarget
        targetDiffers = targetDiffers || other.targetDiffers
    }
}
