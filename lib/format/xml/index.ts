export { escapeXmlAttribute, escapeXmlText } from './escape';
export { writeXmlProperty, writeXmlCollection } from './property-writer';
export { writeXmlLinks, writeXmlLink } from './links-writer';
