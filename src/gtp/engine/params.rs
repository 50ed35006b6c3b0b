//! KataGo's parameter commands: `kata-list-params`, `kata-get-param(s)`
//! and `kata-set-param(s)`, on the player's search parameters.

use log::info;

use super::Engine;
use crate::gtp::response::Reply;
use crate::player::{ParamError, ParamValue, SearchParams, PARAMS};

impl Engine {
    /// `kata-get-param`: one parameter's value.
    pub(super) fn param(&self, name: String) -> Reply {
        self.player
            .config()
            .search
            .get(&name)
            .map(|value| value.to_string())
            .ok_or_else(|| ParamError::Unknown(name).to_string())
    }

    /// `kata-get-params`: every parameter's value.
    pub(super) fn params(&self) -> String {
        params_json(&self.player.config().search)
    }

    /// `kata-set-param(s)`: every parameter set, or none when one of them
    /// is unknown or out of its range.
    pub(super) fn set_params(&mut self, settings: &[(String, String)]) -> Reply {
        let mut params = self.player.config().search.clone();
        for (name, value) in settings {
            params.set(name, value).map_err(|e| e.to_string())?;
        }
        info!("search parameters: {}", params.summary());
        self.player.set_search_params(params);
        Ok(String::new())
    }
}

/// `kata-list-params`: every parameter's name, in the table's order.
pub(super) fn param_names() -> String {
    PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(" ")
}

/// Every parameter's value as a JSON object (`kata-get-params`).
fn params_json(params: &SearchParams) -> String {
    let object: serde_json::Map<String, serde_json::Value> = PARAMS
        .iter()
        .map(|row| {
            let value = match row.get(params) {
                ParamValue::Integer(n) => serde_json::Value::from(n),
                // The f32's shortest text, as kata-get-param prints it
                // (0.9), not its exact f64 value (0.8999999761581421).
                ParamValue::Real(x) => {
                    serde_json::Value::from(x.to_string().parse::<f64>().unwrap_or(f64::from(x)))
                }
                ParamValue::Flag(b) => serde_json::Value::from(b),
            };
            (row.name.to_string(), value)
        })
        .collect();
    serde_json::Value::Object(object).to_string()
}

/// `kata-set-params`' object as (name, value) texts.
pub(super) fn params_of_json(text: &str) -> Result<Vec<(String, String)>, String> {
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| format!("not a JSON object of parameters: {e}"))?;
    Ok(object
        .into_iter()
        .map(|(name, value)| {
            let text = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (name, text)
        })
        .collect())
}
