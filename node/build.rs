//! napi-build's link settings for a Node-API addon.
fn main() {
    napi_build::setup();
}
