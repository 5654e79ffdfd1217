export { escapeXmlAttribute, escapeXmlText } from './escape';
export { compileXmlElement, writeDynamicXmlElement } from './value-writer';
export type { XmlValueWriter } from './value-writer';
export { writeXmlProperty, writeXmlCollection } from './property-writer';
export { writeXmlLinks, writeXmlLink } from './links-writer';
