//! What changed in the site after a reload, and who is told: sessions of the revisions with
//! `initialize` (`notifications/resources/list_changed` after every reload, as before, and
//! `notifications/resources/updated` for the pages they `resources/subscribe`d to), and every
//! open 2026-07-28 `subscriptions/listen` stream (the same two notifications, as its filter
//! asks). The tools and prompts are the binary's, so their lists never change while it runs.

use super::site::Snapshot;
use rmcp::model::{ResourceUpdatedNotificationParam, SubscriptionFilter};
use rmcp::service::SubscriptionContext;
use rmcp::{ErrorData, Peer, RoleServer};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// What one reload changed, as resource URIs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// Whether pages came or went (the resource list is another).
    pub list_changed: bool,
    /// Pages whose Markdown is another (or that are gone).
    pub updated: BTreeSet<String>,
}

/// What changed from `old` to `new`: each page's `.md` rendition compared.
pub fn diff(old: &Snapshot, new: &Snapshot) -> Change {
    fn pages(site: &Snapshot) -> BTreeMap<String, Option<&[u8]>> {
        site.pages()
            .into_iter()
            .map(|page| {
                let text = site.files.get(&page.path).map(Vec::as_slice);
                (format!("{}/{}", site.base_url(), page.path), text)
            })
            .collect()
    }
    let (before, after) = (pages(old), pages(new));
    let updated = before
        .iter()
        .filter(|(uri, text)| after.get(*uri) != Some(*text))
        .map(|(uri, _)| uri.clone())
        .collect();
    Change {
        list_changed: before.keys().ne(after.keys()),
        updated,
    }
}

/// One session of a revision with `initialize`: its peer, and the pages it subscribed to.
struct Session {
    peer: Peer<RoleServer>,
    subscribed: Subscribed,
}

/// The pages one session subscribed to with `resources/subscribe`.
pub type Subscribed = Arc<Mutex<BTreeSet<String>>>;

/// The clients to tell when the site changed.
#[derive(Clone)]
pub struct Listeners {
    sessions: Arc<Mutex<Vec<Session>>>,
    streams: broadcast::Sender<Arc<Change>>,
}

impl Default for Listeners {
    fn default() -> Self {
        // A stream that falls this many reloads behind is told the list changed instead.
        let (streams, _) = broadcast::channel(16);
        Listeners {
            sessions: Arc::default(),
            streams,
        }
    }
}

impl Listeners {
    /// Records a session that began with `initialize`.
    pub fn add(&self, peer: Peer<RoleServer>, subscribed: Subscribed) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.retain(|s| !s.peer.is_transport_closed());
            sessions.push(Session { peer, subscribed });
        }
    }

    /// Tells every open session and stream what changed; closed sessions are dropped.
    pub async fn publish(&self, change: Change) {
        let sessions: Vec<(Peer<RoleServer>, Vec<String>)> = match self.sessions.lock() {
            Ok(mut sessions) => {
                sessions.retain(|s| !s.peer.is_transport_closed());
                sessions
                    .iter()
                    .map(|s| (s.peer.clone(), updated_of(&s.subscribed, &change)))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        // No stream open is no error.
        let _ = self.streams.send(Arc::new(change));
        for (peer, updated) in sessions {
            // A session that went away meanwhile is dropped on the next call.
            let _ = peer.notify_resource_list_changed().await;
            for uri in updated {
                let _ = peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                    .await;
            }
        }
    }

    /// Serves one `subscriptions/listen` stream until the client cancels it or goes away.
    pub async fn listen(&self, stream: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.streams.subscribe();
        let accepted = stream.accepted().clone();
        loop {
            let change = tokio::select! {
                () = stream.cancelled() => return Ok(()),
                change = changes.recv() => change,
            };
            let change = match change {
                Ok(change) => change,
                // Reloads missed: which pages changed is not known, the list may have.
                Err(broadcast::error::RecvError::Lagged(_)) => Arc::new(Change {
                    list_changed: true,
                    updated: BTreeSet::new(),
                }),
                Err(broadcast::error::RecvError::Closed) => return Ok(()),
            };
            let sink = stream.sink();
            let sent = async {
                if change.list_changed && accepted.resources_list_changed == Some(true) {
                    sink.notify_resource_list_changed().await?;
                }
                let watched = accepted.resource_subscriptions.iter().flatten();
                for uri in watched.filter(|uri| change.updated.contains(*uri)) {
                    sink.notify_resource_updated(uri.clone()).await?;
                }
                Ok::<(), rmcp::service::SubscriptionSendError>(())
            };
            if sent.await.is_err() {
                // The stream closed under us: the client is gone.
                return Ok(());
            }
        }
    }
}

/// The notifications a `subscriptions/listen` stream may carry: resource list changes and
/// updates of pages (tools and prompts never change while the server runs).
pub fn accepted(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut builder = SubscriptionFilter::builder();
    if requested.resources_list_changed == Some(true) {
        builder = builder.resources_list_changed();
    }
    if let Some(uris) = &requested.resource_subscriptions {
        builder = builder.resource_subscriptions(uris.iter().cloned());
    }
    builder.build()
}

/// The pages a session subscribed to that `change` updated.
fn updated_of(subscribed: &Subscribed, change: &Change) -> Vec<String> {
    match subscribed.lock() {
        Ok(uris) => uris.intersection(&change.updated).cloned().collect(),
        Err(_) => Vec::new(),
    }
}
