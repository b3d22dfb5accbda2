//! A JSON document that keeps its keys in the order of the file (roost's
//! serde_json sorts them), so a merge leaves the user's settings where
//! they were.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

/// One JSON value; objects keep their keys' order.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Obj(Obj),
    List(Vec<Node>),
    Leaf(Value),
}

/// A JSON object, in the order of its keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Obj(pub Vec<(String, Node)>);

impl Obj {
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The value of `key`, made with `make` at the end when absent.
    pub fn entry(&mut self, key: &str, make: impl FnOnce() -> Node) -> &mut Node {
        let at = match self.0.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                self.0.push((key.to_string(), make()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }
    pub fn remove(&mut self, key: &str) {
        self.0.retain(|(k, _)| k != key);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Node {
    pub fn str(text: &str) -> Node {
        Node::Leaf(Value::String(text.to_string()))
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Leaf(Value::String(s)) => Some(s),
            _ => None,
        }
    }
    pub fn as_obj(&self) -> Option<&Obj> {
        match self {
            Node::Obj(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_obj_mut(&mut self) -> Option<&mut Obj> {
        match self {
            Node::Obj(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_list(&self) -> Option<&Vec<Node>> {
        match self {
            Node::List(l) => Some(l),
            _ => None,
        }
    }
    pub fn as_list_mut(&mut self) -> Option<&mut Vec<Node>> {
        match self {
            Node::List(l) => Some(l),
            _ => None,
        }
    }
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_obj()?.get(key)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Node> {
        self.as_obj_mut()?.get_mut(key)
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Obj(o) => o.serialize(s),
            Node::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Node::Leaf(v) => v.serialize(s),
        }
    }
}

impl Serialize for Obj {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Leaf(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Leaf(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Leaf(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Leaf(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::str(v))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Leaf(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf(Value::Null))
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(i) = seq.next_element()? {
            items.push(i);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut obj = Obj::default();
        while let Some((k, v)) = map.next_entry::<String, Node>()? {
            obj.0.push((k, v));
        }
        Ok(Node::Obj(obj))
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_back_in_the_order_of_the_file() {
        let text = r#"{"z":1,"a":{"y":[true,null,"s",1.5],"b":-2}}"#;
        let node: Node = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&node).unwrap(), text);
    }
}
