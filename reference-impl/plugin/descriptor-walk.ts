// The order both outputs list a file's types in: messages depth first (each before the
// ones nested in it), then enums (the file's own, then each message's, in that order),
// each with its name relative to the package and its source-code-info path, so comments
// can be looked up.
import type { EnumDescriptor, FileDescriptor, MessageDescriptor } from './descriptor-types.js';
import { PATH } from './source-comments.js';

export interface WalkedMessage {
  message: MessageDescriptor;
  /** e.g. "Outer.Inner" */
  relativeName: string;
  path: number[];
}

export interface WalkedEnum {
  enumType: EnumDescriptor;
  relativeName: string;
  path: number[];
}

export function messagesOf(file: FileDescriptor): WalkedMessage[] {
  const out: WalkedMessage[] = [];
  const walk = (messages: MessageDescriptor[] | undefined, prefix: string, parentPath: number[], step: number): void => {
    (messages ?? []).forEach((message, index) => {
      const relativeName = `${prefix}${message.name ?? ''}`;
      const path = [...parentPath, step, index];
      out.push({ message, relativeName, path });
      walk(message.nested_type, `${relativeName}.`, path, PATH.messageNested);
    });
  };
  walk(file.message_type, '', [], PATH.fileMessage);
  return out;
}

export function enumsOf(file: FileDescriptor, messages: WalkedMessage[]): WalkedEnum[] {
  const out: WalkedEnum[] = (file.enum_type ?? []).map((enumType, index) => ({
    enumType,
    relativeName: enumType.name ?? '',
    path: [PATH.fileEnum, index],
  }));
  for (const { message, relativeName, path } of messages) {
    (message.enum_type ?? []).forEach((enumType, index) =>
      out.push({ enumType, relativeName: `${relativeName}.${enumType.name ?? ''}`, path: [...path, PATH.messageEnum, index] }),
    );
  }
  return out;
}
