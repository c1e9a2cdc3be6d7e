extension KnownBots {
    /// The text of `known-bots.txt` (without its last line break), built in so the list needs no file on
    /// disk; a test keeps the two identical.
    public static let builtInText = #"""
# Known bots and crawlers: a request whose User-Agent contains one of these records no impression
# and no click (RecoPage's ImpressionPolicy). One token a line, matched case-insensitively anywhere
# in the User-Agent; blank lines and lines starting with # are ignored. A request with no User-Agent
# at all is treated as a bot too.
#
# Edit a copy and load it with KnownBots(contentsOf:) to add your own; RecoPage's built-in list
# (KnownBots.builtIn) is this file, and a test keeps the two identical.

# Search engines
googlebot
google-inspectiontool
storebot-google
adsbot-google
mediapartners-google
feedfetcher-google
apis-google
bingbot
bingpreview
adidxbot
slurp
duckduckbot
baiduspider
yandex
sogou
exabot
seznambot
naverbot
yeti/
petalbot
applebot
qwantify
mojeekbot
coccocbot

# Link previews and social networks
facebookexternalhit
facebot
meta-externalagent
twitterbot
linkedinbot
pinterestbot
slackbot
telegrambot
whatsapp
discordbot
skypeuripreview
redditbot
embedly
vkshare

# SEO and research crawlers
semrushbot
ahrefsbot
mj12bot
dotbot
blexbot
serpstatbot
dataforseobot
rogerbot
screaming frog
sitebulb
ia_archiver
archive.org_bot
ccbot

# AI crawlers
gptbot
chatgpt-user
oai-searchbot
claudebot
claude-web
anthropic-ai
perplexitybot
bytespider
amazonbot
cohere-ai
diffbot
youbot

# Monitoring and performance tools
lighthouse
pagespeed
gtmetrix
pingdom
uptimerobot
statuscake
site24x7
newrelicpinger
datadog

# Headless browsers and HTTP libraries
headlesschrome
phantomjs
python-requests
python-urllib
python-httpx
aiohttp
curl/
wget/
go-http-client
java/
okhttp
apache-httpclient
libwww-perl
scrapy
axios/
node-fetch
guzzlehttp

# Generic words crawlers put in their names
crawler
spider
"""#
}
